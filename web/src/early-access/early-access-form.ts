import { EarlyAccessBody, errorCatalogue, isErrorCode } from "@booking/contracts";

// The early-access form's checks, before anything is sent: the API's own body schema, so the
// browser and the server refuse the same things with the same words.

export type EarlyAccessInput = { name: string; email: string; role: "creator" | "expert" | ""; need: string };
export type EarlyAccessErrors = Partial<Record<keyof EarlyAccessInput, string>>;

export type EarlyAccessCheck = { ok: true; body: EarlyAccessBody } | { ok: false; errors: EarlyAccessErrors };

export function checkEarlyAccess(input: EarlyAccessInput): EarlyAccessCheck {
  const parsed = EarlyAccessBody.safeParse({ ...input, role: input.role || undefined });
  if (parsed.success) return { ok: true, body: parsed.data };
  const errors: EarlyAccessErrors = {};
  for (const issue of parsed.error.issues) {
    const field = issue.path[0] as keyof EarlyAccessInput;
    if (errors[field] === undefined) errors[field] = isErrorCode(issue.message) ? errorCatalogue[issue.message].message : errorCatalogue.invalid_request.message;
  }
  return { ok: false, errors };
}
