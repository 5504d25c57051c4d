import type { z } from "zod";
import { errorCatalogue, isErrorCode } from "@booking/contracts";

// A form's checks before anything is sent: the API's own body schema, so the browser and the
// server refuse the same things with the same words. The first message per field is shown.

export type FormCheck<T, F extends string> = { ok: true; body: T } | { ok: false; errors: Partial<Record<F, string>> };

export function checkForm<T, F extends string>(schema: z.ZodType<T>, input: unknown): FormCheck<T, F> {
  const parsed = schema.safeParse(input);
  if (parsed.success) return { ok: true, body: parsed.data };
  const errors: Partial<Record<F, string>> = {};
  for (const issue of parsed.error.issues) {
    const field = issue.path[0] as F;
    errors[field] ??= isErrorCode(issue.message) ? errorCatalogue[issue.message].message : errorCatalogue.invalid_request.message;
  }
  return { ok: false, errors };
}
