import { EarlyAccessBody } from "@booking/contracts";
import { checkForm, type FormCheck } from "../shared/form-check.ts";

// The early-access form's checks, before anything is sent: the API's own body schema, so the
// browser and the server refuse the same things with the same words.

export type EarlyAccessInput = { name: string; email: string; role: "creator" | "expert" | ""; need: string };
export type EarlyAccessErrors = Partial<Record<keyof EarlyAccessInput, string>>;

export type EarlyAccessCheck = FormCheck<EarlyAccessBody, keyof EarlyAccessInput>;

export const checkEarlyAccess = (input: EarlyAccessInput): EarlyAccessCheck =>
  checkForm(EarlyAccessBody, { ...input, role: input.role || undefined });
