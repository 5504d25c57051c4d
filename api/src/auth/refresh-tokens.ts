import { createHash, createHmac, randomBytes, randomUUID } from "node:crypto";
import type pg from "pg";
import { recordSignIn, signInSeen, signInsEnded } from "./sign-ins-table.ts";

// Rotating refresh tokens. Each sign-in starts a family; each refresh uses up the presented token
// and issues the next one in the same family. Presenting a used token again means it was copied:
// the whole family is revoked, so the thief and the victim both have to sign in again.
//
// Except just after a rotation: two tabs (or a retried request whose reply was lost) often present
// the same token within moments. For REFRESH_REUSE_GRACE_SECONDS the just-rotated token answers
// again with the same successor, as the big identity providers do. To answer with the *same*
// successor without keeping its plaintext, a successor is not random: it is an HMAC of its
// parent's plaintext under a key derived from the server secret. Only someone holding the parent
// token (and the server, with its secret) can name the successor; the table still holds hashes
// only, and a copy of the table alone names no live token.

export const REFRESH_TOKEN_DAYS = 30;
export const REFRESH_REUSE_GRACE_SECONDS = 30;

type Db = pg.Pool;

const digest = (token: string) => createHash("sha256").update(token).digest("hex");

function expiryFrom(now: string): string {
  return new Date(Date.parse(now) + REFRESH_TOKEN_DAYS * 24 * 3600 * 1000).toISOString();
}

/** The successor of `token`: 32 bytes, like a fresh token, but the same every time it is asked for. */
function successorOf(secret: string, token: string): string {
  const key = createHmac("sha256", secret).update("refresh-token-successor").digest();
  return createHmac("sha256", key).update(token).digest("base64url");
}

async function insertToken(
  db: Pick<Db, "query">,
  userId: string,
  familyId: string,
  now: string,
  token = randomBytes(32).toString("base64url"),
): Promise<string> {
  await db.query("INSERT INTO refresh_tokens (token_hash, user_id, family_id, expires_at, created_at) VALUES ($1, $2, $3, $4, $5)", [
    digest(token),
    userId,
    familyId,
    expiryFrom(now),
    now,
  ]);
  return token;
}

/** A new family, for a fresh sign-in on `device` (in words: the sign-ins list names it so). */
export async function startFamily(
  db: Db,
  userId: string,
  now: string,
  device: string,
): Promise<{ familyId: string; refreshToken: string }> {
  const familyId = randomUUID();
  const refreshToken = await insertToken(db, userId, familyId, now);
  await recordSignIn(db, { familyId, userId, device }, now);
  return { familyId, refreshToken };
}

export type Rotation = { userId: string; familyId: string; refreshToken: string };

/**
 * Use up `token` and issue its successor, or null when it is unknown, expired, revoked or already
 * used. A token used less than REFRESH_REUSE_GRACE_SECONDS ago whose successor is still unused
 * answers that successor again; any other reuse revokes the family. `secret` keys the successors.
 */
export async function rotate(db: Db, secret: string, token: string, now: string): Promise<Rotation | null> {
  const hash = digest(token);
  const successor = successorOf(secret, token);
  const client = await db.connect();
  try {
    await client.query("BEGIN");
    // The row lock makes two concurrent uses of one token serial: the second finds it used.
    const { rows } = await client.query<{ user_id: string; family_id: string }>(
      `UPDATE refresh_tokens SET used_at = $2
        WHERE token_hash = $1 AND used_at IS NULL AND revoked_at IS NULL AND expires_at > $2
        RETURNING user_id, family_id`,
      [hash, now],
    );
    const current = rows[0];
    if (current) {
      const refreshToken = await insertToken(client, current.user_id, current.family_id, now, successor);
      await signInSeen(client, current.family_id, now);
      await client.query("COMMIT");
      return { userId: current.user_id, familyId: current.family_id, refreshToken };
    }
    await client.query("ROLLBACK");
  } catch (e) {
    await client.query("ROLLBACK").catch(() => undefined);
    throw e;
  } finally {
    client.release();
  }
  // Used already (the row's lock is free by now, so its successor, committed with it, is visible).
  const graceStart = new Date(Date.parse(now) - REFRESH_REUSE_GRACE_SECONDS * 1000).toISOString();
  const { rows: again } = await db.query<{ user_id: string; family_id: string }>(
    `SELECT s.user_id, s.family_id
       FROM refresh_tokens p
       JOIN refresh_tokens s ON s.token_hash = $2 AND s.family_id = p.family_id
      WHERE p.token_hash = $1 AND p.revoked_at IS NULL AND p.used_at > $3
        AND s.used_at IS NULL AND s.revoked_at IS NULL AND s.expires_at > $4`,
    [hash, digest(successor), graceStart, now],
  );
  if (again[0]) return { userId: again[0].user_id, familyId: again[0].family_id, refreshToken: successor };
  const { rows: stolen } = await db.query<{ family_id: string }>(
    `UPDATE refresh_tokens SET revoked_at = $2
      WHERE family_id = (SELECT family_id FROM refresh_tokens WHERE token_hash = $1 AND used_at IS NOT NULL) AND revoked_at IS NULL
      RETURNING family_id`,
    [hash, now],
  );
  if (stolen[0]) await signInsEnded(db, { familyId: stolen[0].family_id }, now);
  return null;
}

export async function revokeFamily(db: Db, familyId: string, now: string): Promise<void> {
  await db.query("UPDATE refresh_tokens SET revoked_at = $2 WHERE family_id = $1 AND revoked_at IS NULL", [familyId, now]);
  await signInsEnded(db, { familyId }, now);
}

/** Revoke every session of a user, or all but the family `except` (the caller's own). `db` may be a transaction's client. */
export async function revokeUserSessions(db: Pick<Db, "query">, userId: string, now: string, except?: string): Promise<void> {
  await db.query("UPDATE refresh_tokens SET revoked_at = $2 WHERE user_id = $1 AND revoked_at IS NULL AND family_id IS DISTINCT FROM $3", [
    userId,
    now,
    except ?? null,
  ]);
  await signInsEnded(db, { userId, except }, now);
}

/** Whether the sign-in (refresh-token family) has been ended: revoking a family marks every token in it. */
export async function familyEnded(db: Db, familyId: string): Promise<boolean> {
  const { rows } = await db.query<{ ended: boolean }>({
    name: "refresh-family-ended",
    text: "SELECT EXISTS (SELECT 1 FROM refresh_tokens WHERE family_id = $1 AND revoked_at IS NOT NULL) AS ended",
    values: [familyId],
  });
  return rows[0]!.ended;
}
