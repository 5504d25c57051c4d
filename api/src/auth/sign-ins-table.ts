import type pg from "pg";

// The sign_ins table (schema.ts, 004): one row per sign-in, that is per refresh-token family, with
// the device it began on, when it began, when it was last refreshed and when it ended. The tokens
// (refresh-tokens.ts) decide what works; these rows are what the person sees of them.

type Queryable = Pick<pg.Pool, "query">;

export type SignIn = { familyId: string; device: string; firstSeenAt: string; lastSeenAt: string };

/** A sign-in began (with its family's first token, in the same call). */
export async function recordSignIn(db: Queryable, sign: { familyId: string; userId: string; device: string }, now: string): Promise<void> {
  await db.query("INSERT INTO sign_ins (family_id, user_id, device, first_seen_at, last_seen_at) VALUES ($1, $2, $3, $4, $4)", [
    sign.familyId,
    sign.userId,
    sign.device,
    now,
  ]);
}

/** The sign-in was refreshed: seen now. */
export async function signInSeen(db: Queryable, familyId: string, now: string): Promise<void> {
  await db.query("UPDATE sign_ins SET last_seen_at = greatest(last_seen_at, $2) WHERE family_id = $1", [familyId, now]);
}

/** Sign-ins ended (with their families' tokens): one family, or a user's, but for `except`. */
export async function signInsEnded(
  db: Queryable,
  which: { familyId: string } | { userId: string; except?: string | undefined },
  now: string,
): Promise<void> {
  if ("familyId" in which)
    await db.query("UPDATE sign_ins SET ended_at = $2 WHERE family_id = $1 AND ended_at IS NULL", [which.familyId, now]);
  else
    await db.query("UPDATE sign_ins SET ended_at = $2 WHERE user_id = $1 AND ended_at IS NULL AND family_id IS DISTINCT FROM $3", [
      which.userId,
      now,
      which.except ?? null,
    ]);
}

/**
 * The user's sign-ins still in force at `now`, newest first: not ended, and holding a refresh token
 * that still works (a family left unrefreshed past its token's lifetime is over too).
 */
export async function activeSignIns(db: Queryable, userId: string, now: string): Promise<SignIn[]> {
  const { rows } = await db.query<{ family_id: string; device: string; first_seen_at: Date; last_seen_at: Date }>(
    `SELECT family_id, device, first_seen_at, last_seen_at FROM sign_ins
      WHERE user_id = $1 AND ended_at IS NULL AND EXISTS (
        SELECT 1 FROM refresh_tokens t
         WHERE t.family_id = sign_ins.family_id AND t.used_at IS NULL AND t.revoked_at IS NULL AND t.expires_at > $2)
      ORDER BY first_seen_at DESC, family_id`,
    [userId, now],
  );
  return rows.map((r) => ({
    familyId: r.family_id,
    device: r.device,
    firstSeenAt: r.first_seen_at.toISOString(),
    lastSeenAt: r.last_seen_at.toISOString(),
  }));
}

/** Whether `familyId` is one of the user's sign-ins still in force (another user's is not: it is not found). */
export async function ownsActiveSignIn(db: Queryable, userId: string, familyId: string, now: string): Promise<boolean> {
  return (await activeSignIns(db, userId, now)).some((s) => s.familyId === familyId);
}
