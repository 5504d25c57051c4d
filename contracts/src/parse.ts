import type { z } from "zod";
import { isErrorCode, refusal, type Result } from "./errors.ts";

/**
 * Validate untrusted input once, at the boundary. Schemas put a catalogue code in each issue's
 * message, so the first issue becomes the refusal the user sees; anything else is `invalid_request`.
 */
export function parseInput<S extends z.ZodType>(schema: S, input: unknown): Result<z.output<S>> {
  const result = schema.safeParse(input);
  if (result.success) return { ok: true, value: result.data };
  const first = result.error.issues[0];
  const code = first && isErrorCode(first.message) ? first.message : "invalid_request";
  const field = first?.path.join(".");
  return { ok: false, refusal: refusal(code, field ? { field } : undefined) };
}
