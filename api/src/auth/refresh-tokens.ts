import { createHash, randomBytes, randomUUID } from "node:crypto";
import type { AppContext } from "../context.ts";

// Rotating refresh tokens. Each sign-in starts a family; each refresh uses up the presented token
// and issues the next one in the same family. Presenting a used token again means it was copied:
// the whole family is revoked, so the thief and the victim both have to sign in again.

export const REFRESH_TOKEN_DAYS = 30;

type Db = AppContext["db"];

const digest = (token: string) => createHash("sha256").update(token).digest("hex");

function expiryFrom(now: string): string {
  return new Date(Date.parse(now) + REFRESH_TOKEN_DAYS * 24 * 3600 * 1000).toISOString();
}

async function insertToken(db: Pick<Db, "query">, userId: string, familyId: string, now: string): Promise<string> {
  const token = randomBytes(32).toString("base64url");
  await db.query("INSERT INTO refresh_tokens (token_hash, user_id, family_id, expires_at, created_at) VALUES ($1, $2, $3, $4, $5)", [digest(token), userId, familyId, expiryFrom(now), now]);
  return token;
}

/** A new family, for a fresh sign-in. */
export async function startFamily(db: Db, userId: string, now: string): Promise<{ familyId: string; refreshToken: string }> {
  const familyId = randomUUID();
  return { familyId, refreshToken: await insertToken(db, userId, familyId, now) };
}

export type Rotation = { userId: string; familyId: string; refreshToken: string };

/** Use up `token` and issue its successor, or null when it is unknown, expired, revoked or already used. */
export async function rotate(db: Db, token: string, now: string): Promise<Rotation | null> {
  const hash = digest(token);
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
    if (!current) {
      await client.query("ROLLBACK");
      await client.query(
        `UPDATE refresh_tokens SET revoked_at = $2
          WHERE family_id = (SELECT family_id FROM refresh_tokens WHERE token_hash = $1 AND used_at IS NOT NULL) AND revoked_at IS NULL`,
        [hash, now],
      );
      return null;
    }
    const refreshToken = await insertToken(client, current.user_id, current.family_id, now);
    await client.query("COMMIT");
    return { userId: current.user_id, familyId: current.family_id, refreshToken };
  } catch (e) {
    await client.query("ROLLBACK").catch(() => undefined);
    throw e;
  } finally {
    client.release();
  }
}

export async function revokeFamily(db: Db, familyId: string, now: string): Promise<void> {
  await db.query("UPDATE refresh_tokens SET revoked_at = $2 WHERE family_id = $1 AND revoked_at IS NULL", [familyId, now]);
}

/** Revoke every session of a user, or all but the family `except` (the caller's own). */
export async function revokeUserSessions(db: Db, userId: string, now: string, except?: string): Promise<void> {
  await db.query("UPDATE refresh_tokens SET revoked_at = $2 WHERE user_id = $1 AND revoked_at IS NULL AND family_id IS DISTINCT FROM $3", [userId, now, except ?? null]);
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
