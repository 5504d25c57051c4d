import { createHmac, timingSafeEqual } from "node:crypto";
import { TWO_FACTOR_CHALLENGE_SECONDS } from "@booking/contracts";

// Between the password and the second factor: a short-lived token saying "this account's password
// was just given". Signed, not stored (like the mail links): it names the account, when it was
// issued and until when it holds. It opens nothing by itself; with a code it becomes a session.

export type ChallengeClaims = { userId: string; /** ms since epoch */ issuedAt: number };
export type ReadChallenge = { ok: true; claims: ChallengeClaims } | { ok: false; problem: "invalid" | "expired" };

// A key of its own, derived from the JWT secret, so a challenge passes for nothing else.
const keyOf = (secret: string) => createHmac("sha256", secret).update("two-factor-challenge/v1").digest();
const sign = (secret: string, body: string) => createHmac("sha256", keyOf(secret)).update(body).digest("base64url");

export function signChallenge(secret: string, userId: string, now: string): string {
  const issuedAt = Date.parse(now);
  const body = Buffer.from(JSON.stringify([userId, issuedAt, issuedAt + TWO_FACTOR_CHALLENGE_SECONDS * 1000])).toString("base64url");
  return `${body}.${sign(secret, body)}`;
}

/** The challenge's claims, if we signed it and it still holds at `now`. */
export function readChallenge(secret: string, token: string, now: string): ReadChallenge {
  const [body, signature, ...rest] = token.split(".");
  if (!body || !signature || rest.length) return { ok: false, problem: "invalid" };
  const expected = Buffer.from(sign(secret, body));
  const given = Buffer.from(signature);
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) return { ok: false, problem: "invalid" };
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(body, "base64url").toString("utf8"));
  } catch {
    return { ok: false, problem: "invalid" };
  }
  if (!Array.isArray(parsed) || parsed.length !== 3) return { ok: false, problem: "invalid" };
  const [userId, issuedAt, expiresAt] = parsed as unknown[];
  if (typeof userId !== "string" || typeof issuedAt !== "number" || typeof expiresAt !== "number") return { ok: false, problem: "invalid" };
  if (Date.parse(now) >= expiresAt) return { ok: false, problem: "expired" };
  return { ok: true, claims: { userId, issuedAt } };
}
