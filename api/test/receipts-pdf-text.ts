import { inflateSync } from "node:zlib";

// The text a PDF written by pdfkit shows, for tests: each content stream inflated, each text
// operator's hex strings decoded (pdfkit writes the standard fonts' text as hex, WinAnsi),
// one line per TJ. Enough to check what a receipt or a statement says; no PDF library needed.

export function pdfText(pdf: Buffer): string {
  const lines: string[] = [];
  const raw = pdf.toString("latin1");
  const streams = /stream\r?\n/g;
  for (let m = streams.exec(raw); m; m = streams.exec(raw)) {
    const start = m.index + m[0].length;
    const end = raw.indexOf("endstream", start);
    if (end < 0) break;
    const bytes = pdf.subarray(start, end);
    let content: string;
    try {
      content = inflateSync(bytes).toString("latin1");
    } catch {
      content = bytes.toString("latin1");
    }
    for (const tj of content.matchAll(/\[([^\]]*)\]\s*TJ/g)) {
      const text = [...tj[1]!.matchAll(/<([0-9a-fA-F]*)>/g)].map((h) => Buffer.from(h[1]!, "hex").toString("latin1")).join("");
      lines.push(text);
    }
    streams.lastIndex = end;
  }
  return lines.join("\n");
}
