/** An `Idempotency-Key` header makes a retried create return the first result. */
export function idempotencyKeyOf(headers: Record<string, string | string[] | undefined>): string | undefined {
  const key = headers["idempotency-key"];
  return typeof key === "string" && /^[\w.:-]{1,200}$/.test(key) ? key : undefined;
}
