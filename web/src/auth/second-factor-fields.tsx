import Box from "@mui/material/Box";
import Link from "@mui/material/Link";
import TextField from "@mui/material/TextField";
import { z } from "zod";
import { AuthenticatorCode, RecoveryCode } from "@booking/contracts";
import { checkForm } from "../shared/form-check.ts";
import type { SecondFactorProof } from "./two-factor-sign-in.ts";

// The second factor as a person gives it, signing in or turning two-factor sign-in off: the 6-digit
// code their authenticator app shows, or (the phone lost) one of their recovery codes. Checked with
// the API's own schemas, so the browser and the server refuse the same codes in the same words.

export type SecondFactorMode = "code" | "recovery";
export type SecondFactorInput = { mode: SecondFactorMode; code: string; recovery: string };

export const EMPTY_SECOND_FACTOR: SecondFactorInput = { mode: "code", code: "", recovery: "" };

/** The proof to send, or what is wrong with the field. */
export function checkSecondFactor(input: SecondFactorInput): { ok: true; proof: SecondFactorProof } | { ok: false; error: string } {
  if (input.mode === "code") {
    if (!input.code.trim()) return { ok: false, error: "Please enter the 6-digit code from your authenticator app." };
    const checked = checkForm<{ code: string }, "code">(z.object({ code: AuthenticatorCode }), { code: input.code });
    return checked.ok ? { ok: true, proof: { code: checked.body.code } } : { ok: false, error: checked.errors.code! };
  }
  if (!input.recovery.trim()) return { ok: false, error: "Please enter one of your recovery codes." };
  const checked = checkForm<{ recovery_code: string }, "recovery_code">(z.object({ recovery_code: RecoveryCode }), {
    recovery_code: input.recovery,
  });
  return checked.ok
    ? { ok: true, proof: { recovery_code: checked.body.recovery_code } }
    : { ok: false, error: checked.errors.recovery_code! };
}

/** The code field, or the recovery code field, and the link between them. */
export function SecondFactorFields({
  value,
  onChange,
  error,
  autoFocus = false,
}: {
  value: SecondFactorInput;
  onChange: (next: SecondFactorInput) => void;
  error?: string | undefined;
  autoFocus?: boolean;
}) {
  const byCode = value.mode === "code";
  return (
    <Box sx={{ display: "grid", gap: 1 }}>
      {byCode ? (
        <TextField
          key="code"
          label="6-digit code"
          value={value.code}
          onChange={(e) => onChange({ ...value, code: e.target.value })}
          error={!!error}
          helperText={error ?? "The code your authenticator app shows now."}
          autoComplete="one-time-code"
          autoFocus={autoFocus}
          slotProps={{ htmlInput: { inputMode: "numeric", maxLength: 7 } }}
        />
      ) : (
        <TextField
          key="recovery"
          label="Recovery code"
          value={value.recovery}
          onChange={(e) => onChange({ ...value, recovery: e.target.value })}
          error={!!error}
          helperText={error ?? "One of the codes you saved when you set up two-factor sign-in. Each works once."}
          autoComplete="off"
          autoFocus={autoFocus}
        />
      )}
      <Link
        component="button"
        type="button"
        sx={{ justifySelf: "start" }}
        onClick={() => onChange({ ...value, mode: byCode ? "recovery" : "code" })}
      >
        {byCode ? "Use a recovery code instead" : "Use your authenticator app instead"}
      </Link>
    </Box>
  );
}
