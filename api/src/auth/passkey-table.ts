import { randomUUID } from "node:crypto";
import type pg from "pg";
import { PASSKEY_CHALLENGE_SECONDS, type SecondFactorKind } from "@booking/contracts";

// The passkeys and passkey_challenges tables (schema.ts, 005): a user's WebAuthn credentials, and
// the challenges handed to browsers, each good for one answer.

type Queryable = Pick<pg.Pool, "query">;

export type Passkey = {
  id: string;
  /** base64url, as WebAuthn's JSON names the credential. */
  credentialId: string;
  userId: string;
  /** The COSE public key the registration gave. */
  publicKey: Uint8Array<ArrayBuffer>;
  counter: number;
  transports: string[];
  name: string;
  device: string;
  synced: boolean;
  createdAt: string;
  lastUsedAt: string | null;
  /** Set once the owner removed it: it signs no one in, and says so. */
  removedAt: string | null;
};

type PasskeyRow = {
  id: string;
  credential_id: string;
  user_id: string;
  public_key: Buffer;
  counter: string;
  transports: string[];
  name: string;
  device: string;
  synced: boolean;
  created_at: Date;
  last_used_at: Date | null;
  removed_at: Date | null;
};

const COLUMNS = "id, credential_id, user_id, public_key, counter, transports, name, device, synced, created_at, last_used_at, removed_at";

const toPasskey = (r: PasskeyRow): Passkey => ({
  id: r.id,
  credentialId: r.credential_id,
  userId: r.user_id,
  publicKey: new Uint8Array(r.public_key),
  counter: Number(r.counter),
  transports: r.transports,
  name: r.name,
  device: r.device,
  synced: r.synced,
  createdAt: r.created_at.toISOString(),
  lastUsedAt: r.last_used_at?.toISOString() ?? null,
  removedAt: r.removed_at?.toISOString() ?? null,
});

/** The user's passkeys in use, newest first. */
export async function passkeysOf(db: Queryable, userId: string): Promise<Passkey[]> {
  const { rows } = await db.query<PasskeyRow>(
    `SELECT ${COLUMNS} FROM passkeys WHERE user_id = $1 AND removed_at IS NULL ORDER BY created_at DESC, id`,
    [userId],
  );
  return rows.map(toPasskey);
}

/** The passkey of `credentialId`, removed or not; null: never registered here. */
export async function passkeyByCredential(db: Queryable, credentialId: string): Promise<Passkey | null> {
  const { rows } = await db.query<PasskeyRow>(`SELECT ${COLUMNS} FROM passkeys WHERE credential_id = $1`, [credentialId]);
  return rows[0] ? toPasskey(rows[0]) : null;
}

export type NewPasskey = Pick<Passkey, "credentialId" | "userId" | "publicKey" | "counter" | "transports" | "name" | "device" | "synced">;

/**
 * Keep a verified registration, unless the user already keeps `limit` passkeys or the credential is
 * in use (by anyone). A credential the user removed before may come back, as a new passkey. The limit
 * bounds what one account can store; registrations racing each other may pass it by the ones in flight.
 */
export async function addPasskey(db: Queryable, passkey: NewPasskey, at: string, limit: number): Promise<Passkey | "limit" | "taken"> {
  const existing = await passkeyByCredential(db, passkey.credentialId);
  if (existing && (existing.removedAt === null || existing.userId !== passkey.userId)) return "taken";
  const { rows } = await db.query<PasskeyRow>(
    `INSERT INTO passkeys (id, credential_id, user_id, public_key, counter, transports, name, device, synced, created_at)
       SELECT $1, $2, $3, $4, $5, $6, $7, $8, $9, $10
        WHERE (SELECT count(*) FROM passkeys WHERE user_id = $3 AND removed_at IS NULL) < $11
     ON CONFLICT (credential_id) DO UPDATE SET
       id = EXCLUDED.id, public_key = EXCLUDED.public_key, counter = EXCLUDED.counter, transports = EXCLUDED.transports,
       name = EXCLUDED.name, device = EXCLUDED.device, synced = EXCLUDED.synced, created_at = EXCLUDED.created_at,
       last_used_at = NULL, removed_at = NULL
       WHERE passkeys.user_id = EXCLUDED.user_id AND passkeys.removed_at IS NOT NULL
     RETURNING ${COLUMNS}`,
    [
      randomUUID(),
      passkey.credentialId,
      passkey.userId,
      Buffer.from(passkey.publicKey),
      passkey.counter,
      passkey.transports,
      passkey.name,
      passkey.device,
      passkey.synced,
      at,
      limit,
    ],
  );
  if (rows[0]) return toPasskey(rows[0]);
  // Nothing written: the limit (the count's condition), or the credential came in meanwhile (the conflict's).
  return (await passkeyByCredential(db, passkey.credentialId))?.removedAt === null ? "taken" : "limit";
}

/**
 * A sign-in with the passkey at signature count `counter`: recorded only if the count moved on from the
 * one the check read (`seen`), so of two answers racing with one count, one passes. Authenticators
 * that keep no count always say 0. False: another sign-in got there first, or it was removed meanwhile.
 */
export async function recordPasskeyUse(db: Queryable, id: string, seen: number, counter: number, at: string): Promise<boolean> {
  const { rowCount } = await db.query(
    `UPDATE passkeys SET counter = $3, last_used_at = $4
      WHERE id = $1 AND removed_at IS NULL AND counter = $2 AND ($3 > $2 OR ($3 = 0 AND $2 = 0))`,
    [id, seen, counter, at],
  );
  return rowCount === 1;
}

/** Remove one of the user's passkeys; false when it is not one of theirs in use. */
export async function removePasskey(db: Queryable, userId: string, id: string, at: string): Promise<boolean> {
  const { rowCount } = await db.query("UPDATE passkeys SET removed_at = $3 WHERE id = $1 AND user_id = $2 AND removed_at IS NULL", [
    id,
    userId,
    at,
  ]);
  return rowCount === 1;
}

/** Which second factors the user has: a code (two-factor sign-in on), a passkey, both, or none. One indexed read. */
export async function secondFactorsOf(db: Queryable, userId: string): Promise<SecondFactorKind[]> {
  const { rows } = await db.query<{ code: boolean; passkey: boolean }>({
    name: "second-factors-of",
    text: `SELECT EXISTS (SELECT 1 FROM two_factor WHERE user_id = $1 AND secret IS NOT NULL) AS code,
                  EXISTS (SELECT 1 FROM passkeys WHERE user_id = $1 AND removed_at IS NULL) AS passkey`,
    values: [userId],
  });
  const row = rows[0]!;
  return [...(row.code ? (["code"] as const) : []), ...(row.passkey ? (["passkey"] as const) : [])];
}

// Challenges -------------------------------------------------------------------------------------

/**
 * What a challenge was handed out for: adding a passkey, a passkey sign-in, the second step after a password, or a
 * signed-in person confirming it is them again (before deleting their account).
 */
export type ChallengePurpose = "registration" | "sign_in" | "second_factor" | "reauthentication";

/** Keep a challenge for PASSKEY_CHALLENGE_SECONDS; the expired ones go at the same time, so the table stays small. */
export async function keepChallenge(db: Queryable, challenge: string, purpose: ChallengePurpose, userId: string | null, now: string) {
  await db.query("DELETE FROM passkey_challenges WHERE expires_at < $1", [now]);
  const expiresAt = new Date(Date.parse(now) + PASSKEY_CHALLENGE_SECONDS * 1000).toISOString();
  await db.query("INSERT INTO passkey_challenges (challenge, purpose, user_id, expires_at) VALUES ($1, $2, $3, $4)", [
    challenge,
    purpose,
    userId,
    expiresAt,
  ]);
}

export type TakenChallenge = { ok: true; userId: string | null } | { ok: false; problem: "invalid" | "expired" };

/**
 * Take the challenge an answer signed: deleted in the same statement that finds it, so it answers once
 * (a replay, or two answers racing, find nothing). "invalid": never handed out for `purpose`, or taken already.
 */
export async function takeChallenge(db: Queryable, challenge: string, purpose: ChallengePurpose, now: string): Promise<TakenChallenge> {
  const { rows } = await db.query<{ user_id: string | null; expires_at: Date }>(
    "DELETE FROM passkey_challenges WHERE challenge = $1 AND purpose = $2 RETURNING user_id, expires_at",
    [challenge, purpose],
  );
  const row = rows[0];
  if (!row) return { ok: false, problem: "invalid" };
  if (row.expires_at.getTime() <= Date.parse(now)) return { ok: false, problem: "expired" };
  return { ok: true, userId: row.user_id };
}
