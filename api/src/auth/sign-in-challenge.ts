import { readLink, signLink } from "./signed-links.ts";

// Between the password and the second factor: a short-lived token saying "this account's password
// was just given" (TWO_FACTOR_CHALLENGE_SECONDS). A signed token like the mail links, of a purpose of
// its own, so neither passes for the other. It opens nothing by itself; with a code it becomes a session.

export type ChallengeClaims = { userId: string; /** ms since epoch */ issuedAt: number };
export type ReadChallenge = { ok: true; claims: ChallengeClaims } | { ok: false; problem: "invalid" | "expired" };

export const signChallenge = (secret: string, userId: string, now: string): string => signLink(secret, "sign_in_challenge", userId, now);

/** The challenge's claims, if we signed it and it still holds at `now`. */
export function readChallenge(secret: string, token: string, now: string): ReadChallenge {
  const read = readLink(secret, token, "sign_in_challenge", now);
  return read.ok ? { ok: true, claims: { userId: read.claims.userId, issuedAt: read.claims.issuedAt } } : read;
}
