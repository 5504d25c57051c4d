import pg from "pg";

/** A statement as node-postgres sends it: its text and, when given, its values. */
export type SentStatement = { text: string; values: unknown[] };

/**
 * Hand every statement any pg client sends while `work` runs to `seen` (each is one round trip):
 * tests and benches count a route's or a store's statements with it. Statements of loops running
 * meanwhile are seen too; a caller that wants only its own tells them apart (AsyncLocalStorage).
 */
export async function watchStatements<T>(seen: (statement: SentStatement) => void, work: () => Promise<T>): Promise<T> {
  const proto = pg.Client.prototype as unknown as { query: (...a: unknown[]) => unknown };
  const original = proto.query;
  proto.query = function (this: unknown, ...a: unknown[]) {
    const [q, v] = a as [string | { text?: string; values?: unknown[] } | undefined, unknown];
    const values = Array.isArray(v) ? v : [];
    if (typeof q === "string") seen({ text: q, values });
    else if (q && typeof q === "object" && typeof q.text === "string") seen({ text: q.text, values: q.values ?? values });
    return original.apply(this, a);
  };
  try {
    return await work();
  } finally {
    proto.query = original;
  }
}
