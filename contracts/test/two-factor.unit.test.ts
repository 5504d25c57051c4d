import { describe, expect, it } from "vitest";
import {
  TwoFactorConfirmBody,
  TwoFactorDisableBody,
  TwoFactorLoginBody,
  parseInput,
  refusalMessage,
  type ErrorCode,
} from "../src/index.ts";

// Issue 33.4: the second factor's bodies, as the API and the forms read them. A code is six digits
// (spaces typed between the groups dropped); a recovery code's case, spaces and dashes do not matter;
// exactly one of the two proves the second factor.

function refusedWith(schema: Parameters<typeof parseInput>[0], input: unknown, code: ErrorCode) {
  const r = parseInput(schema, input);
  expect(r.ok, `expected ${code}`).toBe(false);
  if (!r.ok) expect(r.refusal.code).toBe(code);
  return r.ok ? "" : refusalMessage(r.refusal);
}

describe("two-factor bodies", () => {
  it("take a 6-digit code as typed, and refuse anything else with the catalogue's words", () => {
    expect(parseInput(TwoFactorConfirmBody, { code: " 123 456 " })).toEqual({ ok: true, value: { code: "123456" } });
    for (const code of ["12345", "1234567", "12a456", "", 123456])
      expect(refusedWith(TwoFactorConfirmBody, { code }, "two_factor_code_wrong")).toBe(
        "That code is not right. Enter the 6-digit code your authenticator app shows now.",
      );
  });

  it("take a recovery code in any case, with spaces or dashes", () => {
    expect(parseInput(TwoFactorLoginBody, { challenge: "c.s", recovery_code: " ABCD-efgh jkmn" })).toEqual({
      ok: true,
      value: { challenge: "c.s", recovery_code: "abcdefghjkmn" },
    });
    refusedWith(TwoFactorLoginBody, { challenge: "c.s", recovery_code: "abcd-efgh" }, "recovery_code_wrong");
  });

  it("need exactly one proof: a code or a recovery code", () => {
    refusedWith(TwoFactorLoginBody, { challenge: "c.s" }, "two_factor_proof_required");
    refusedWith(TwoFactorLoginBody, { challenge: "c.s", code: "123456", recovery_code: "abcd-efgh-jkmn" }, "two_factor_proof_required");
    refusedWith(TwoFactorDisableBody, { current_password: "x" }, "two_factor_proof_required");
    refusedWith(TwoFactorLoginBody, { challenge: "", code: "123456" }, "two_factor_challenge_invalid");
    expect(parseInput(TwoFactorDisableBody, { current_password: "x", code: "123456" }).ok).toBe(true);
  });
});
