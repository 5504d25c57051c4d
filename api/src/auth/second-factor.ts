import type pg from "pg";
import type { ErrorCode } from "@booking/contracts";
import { openSecret, recoveryCodeHash, stepOfCode } from "./authenticator.ts";
import { acceptStep, spendRecoveryCode, twoFactorOf } from "./two-factor-table.ts";

// Proving the second factor (signing in, turning it off): a code the app shows now, used once, or
// one of the recovery codes, each used once.

/** A current code or a recovery code (contracts' TwoFactorLoginBody and TwoFactorDisableBody hold exactly one). */
export type SecondFactorProof = { code?: string | undefined; recovery_code?: string | undefined };

/** Why a proof was refused: each its own catalogue message. */
export type ProofRefusal = Extract<
  ErrorCode,
  "two_factor_not_enabled" | "two_factor_code_wrong" | "two_factor_code_reused" | "recovery_code_wrong" | "recovery_code_spent"
>;

/** Null when `proof` holds for the user at `now` (and is now used up); else why not. */
export async function proveSecondFactor(
  db: pg.Pool,
  key: Buffer,
  userId: string,
  proof: SecondFactorProof,
  now: string,
): Promise<ProofRefusal | null> {
  const row = await twoFactorOf(db, userId);
  if (!row?.secret) return "two_factor_not_enabled";
  if (proof.recovery_code !== undefined) {
    const spent = await spendRecoveryCode(db, userId, recoveryCodeHash(proof.recovery_code), now);
    return spent === "accepted" ? null : spent === "spent" ? "recovery_code_spent" : "recovery_code_wrong";
  }
  let secret: string;
  try {
    secret = openSecret(key, row.secret);
  } catch {
    // Sealed under another JWT secret: no code can match it any more; the recovery codes still do.
    return "two_factor_code_wrong";
  }
  const step = await stepOfCode(secret, proof.code ?? "", now);
  if (step === null) return "two_factor_code_wrong";
  // Decided in one update: of two requests with one code, one passes.
  return (await acceptStep(db, userId, step)) ? null : "two_factor_code_reused";
}
