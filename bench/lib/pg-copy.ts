import type pg from "pg";

// COPY ... FROM STDIN without pg-copy-streams (not installed): node-postgres accepts any object
// with `submit(connection)` as a query, and hands it the COPY protocol messages. This one sends
// prepared chunks of COPY text and resolves with the row count the server reports.

type Connection = { query: (text: string) => void; sendCopyFromChunk: (chunk: Buffer) => void; endCopyFrom: () => void; sendCopyFail: (msg: string) => void };

class CopyFromChunks {
  callback: ((err: Error | null, rows?: number) => void) | undefined;
  private rows = 0;
  private error: Error | null = null;

  constructor(
    readonly text: string,
    private readonly chunks: readonly Buffer[],
  ) {}

  submit(connection: Connection): void {
    connection.query(this.text);
  }

  handleCopyInResponse(connection: Connection): void {
    for (const chunk of this.chunks) connection.sendCopyFromChunk(chunk);
    connection.endCopyFrom();
  }

  handleCommandComplete(msg: { text?: string }): void {
    this.rows = Number(/COPY (\d+)/.exec(msg.text ?? "")?.[1] ?? 0);
  }

  handleError(error: Error): void {
    this.error = error;
  }

  handleReadyForQuery(): void {
    const cb = this.callback;
    this.callback = undefined;
    cb?.(this.error, this.rows);
  }
}

/** Stream `chunks` (COPY text format) into `COPY <target> FROM STDIN`; resolves with the rows copied. */
export function copyFrom(client: pg.PoolClient | pg.Client, target: string, chunks: readonly Buffer[]): Promise<number> {
  return new Promise((resolve, reject) => {
    const q = new CopyFromChunks(`COPY ${target} FROM STDIN`, chunks);
    q.callback = (err, rows) => (err ? reject(err) : resolve(rows ?? 0));
    (client as unknown as { query: (q: unknown) => void }).query(q);
  });
}

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
