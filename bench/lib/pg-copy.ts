// Rows in COPY's text format, for `copyIn` (projections/src/copy-rows.ts: the rebuild's COPY
// FROM STDIN over node-postgres, without pg-copy-streams) to send.

/** A value in COPY's text format: \N for null, backslash, tab and line breaks escaped. */
export function copyText(v: string | number | null): string {
  if (v === null) return "\\N";
  return String(v).replace(/[\\\t\n\r]/g, (c) => (c === "\\" ? "\\\\" : c === "\t" ? "\\t" : c === "\n" ? "\\n" : "\\r"));
}

/** Rows of COPY text cut into chunks of about `size` bytes. */
export function copyChunks(rows: Iterable<readonly (string | number | null)[]>, size = 64 * 1024): Buffer[] {
  const chunks: Buffer[] = [];
  let current = "";
  for (const row of rows) {
    current += `${row.map(copyText).join("\t")}\n`;
    if (current.length >= size) {
      chunks.push(Buffer.from(current));
      current = "";
    }
  }
  if (current) chunks.push(Buffer.from(current));
  return chunks;
}
