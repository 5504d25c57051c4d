import { createHmac, timingSafeEqual } from "node:crypto";
import { TWO_FACTOR_CHALLENGE_SECONDS } from "@booking/contracts";

// Tokens carried by links in mails (verify the address, reset the password, unsubscribe), and the
// sign-in challenge between a password and its second factor (sign-in-challenge.ts). Signed, not
// stored: the token holds who and what it is for, when it was issued and until when it works.
// Single use is the caller's rule, from state the link changes: a verification link is spent once
// the address is verified, a reset link once the password changed after it was issued. A link may
// also sign where the web app goes next (a return path, issue 27.4): it travels beside the token in
// the link, and a token read with any other destination (or none) is invalid.

export type LinkPurpose = "verify_email" | "password_reset" | "unsubscribe" | "sign_in_challenge";

export type LinkClaims = {
  purpose: LinkPurpose;
  userId: string;
  /** ms since epoch */ issuedAt: number;
  /** ms since epoch; null: does not expire */ expiresAt: number | null;
};

export type ReadLink = { ok: true; claims: LinkClaims } | { ok: false; problem: "invalid" | "expired" };

/** How long each link works. */
export const LINK_LIFETIME_MS: Record<LinkPurpose, number | null> = {
  verify_email: 24 * 60 * 60 * 1000,
  password_reset: 60 * 60 * 1000,
  // Unsubscribing must keep working from an old mail.
  unsubscribe: null,
  sign_in_challenge: TWO_FACTOR_CHALLENGE_SECONDS * 1000,
};

// A key of its own, derived from the JWT secret, so a link can never pass for an access token.
const keyOf = (secret: string) => createHmac("sha256", secret).update("mail-links/v1").digest();

// The body is base64url, so a line break cannot occur in it: body and destination read one way only.
// Without a destination the signature is the body's alone, as it was before destinations.
const sign = (secret: string, body: string, destination: string | null) =>
  createHmac("sha256", keyOf(secret))
    .update(destination === null ? body : `${body}\n${destination}`)
    .digest("base64url");

export function signLink(secret: string, purpose: LinkPurpose, userId: string, now: string, destination: string | null = null): string {
  const issuedAt = Date.parse(now);
  const lifetime = LINK_LIFETIME_MS[purpose];
  const claims: LinkClaims = { purpose, userId, issuedAt, expiresAt: lifetime === null ? null : issuedAt + lifetime };
  const body = Buffer.from(JSON.stringify([claims.purpose, claims.userId, claims.issuedAt, claims.expiresAt])).toString("base64url");
  return `${body}.${sign(secret, body, destination)}`;
}

/** The token's claims, if it was signed for `purpose` with exactly `destination` (null: none). */
export function readLink(secret: string, token: string, purpose: LinkPurpose, now: string, destination: string | null = null): ReadLink {
  const [body, signature, ...rest] = token.split(".");
  if (!body || !signature || rest.length) return { ok: false, problem: "invalid" };
  const expected = Buffer.from(sign(secret, body, destination));
  const given = Buffer.from(signature);
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) return { ok: false, problem: "invalid" };
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(body, "base64url").toString("utf8"));
  } catch {
    return { ok: false, problem: "invalid" };
  }
  if (!Array.isArray(parsed) || parsed.length !== 4) return { ok: false, problem: "invalid" };
  const [p, userId, issuedAt, expiresAt] = parsed as unknown[];
  if (p !== purpose || typeof userId !== "string" || typeof issuedAt !== "number" || !(expiresAt === null || typeof expiresAt === "number"))
    return { ok: false, problem: "invalid" };
  if (expiresAt !== null && Date.parse(now) >= expiresAt) return { ok: false, problem: "expired" };
  return { ok: true, claims: { purpose, userId, issuedAt, expiresAt } };
}
