import type pg from "pg";
import type { PasskeyAssertion, PasskeyRequestOptions } from "@booking/contracts";
import { refuse } from "../http/index.ts";
import { relyingPartyOf, requestOptions, verifiedAssertion } from "./passkey-ceremonies.ts";
import { passkeyOfAnswer, takenChallengeOf } from "./passkey-sign-in-routes.ts";
import { keepChallenge, passkeysOf, recordPasskeyUse } from "./passkey-table.ts";

// A signed-in person confirming it is them again with one of their passkeys (issue 33.4), where a
// step as grave as deleting their account (issue 33.2) would otherwise take their password and a
// code: the device holds the passkey and verifies the person (PIN, fingerprint), so the one answer
// is both factors. The options name the person's own passkeys and insist the device verifies them;
// the answer must be to those options, by one of those passkeys. Refused in the passkey sign-in's words.

/** Options for `userId`'s passkeys, the person verified; `publicUrl`: the web app's address (the passkeys' site). */
export async function reauthenticationOptions(db: pg.Pool, publicUrl: string, userId: string, now: string): Promise<PasskeyRequestOptions> {
  const passkeys = await passkeysOf(db, userId);
  if (passkeys.length === 0) refuse("passkey_none_registered");
  const options = await requestOptions(relyingPartyOf(publicUrl), passkeys, true);
  // Bound to the person: another account's answer to it proves nothing about this one.
  await keepChallenge(db, options.challenge, "reauthentication", userId, now);
  return options;
}

/** Whether `response` proves the caller is `userId`: returns once it does, refuses otherwise. The passkey's use is recorded. */
export async function proveWithPasskey(db: pg.Pool, publicUrl: string, userId: string, response: PasskeyAssertion, now: string) {
  const taken = await takenChallengeOf(db, response, "reauthentication", now);
  if (taken.userId !== userId) refuse("passkey_challenge_invalid");
  const passkey = await passkeyOfAnswer(db, response, userId);
  const counter = await verifiedAssertion(relyingPartyOf(publicUrl), response, passkey, taken.challenge, true);
  // Of two answers racing with one count (a copied passkey's), the second finds the count moved on.
  if (!(await recordPasskeyUse(db, passkey.id, passkey.counter, counter, now))) refuse("passkey_counter_regressed");
}
