/**
 * Saves `blob` through the browser's download, named `filename`. Files the API serves come with the
 * session's token, which a plain link cannot carry, so they are handed over as an object URL.
 */
export function saveFile(blob: Blob, filename: string): void {
  const href = URL.createObjectURL(blob);
  const link = document.createElement("a");
  link.href = href;
  link.download = filename;
  link.hidden = true;
  document.body.append(link);
  link.click();
  link.remove();
  // Later: revoking as the click is handled can cancel the download in some browsers.
  setTimeout(() => URL.revokeObjectURL(href), 1000);
}
