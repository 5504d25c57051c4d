import type pg from "pg";

// The two_factor and recovery_codes tables (schema.ts, 004): a user's sealed TOTP secret in use
// and the one waiting for its first code, the last time-step a code was accepted for, and the
// hashes of their recovery codes.

type Queryable = Pick<pg.Pool, "query">;

/** How long a secret waits for its first code: an enrolment left half done is started again after it. */
export const PENDING_ENROLMENT_MINUTES = 60;

export type TwoFactorRow = {
  /** The sealed secret in use; null: two-factor sign-in is off. */
  secret: string | null;
  enrolledAt: string | null;
  lastStep: number | null;
  /** A sealed secret shown at enrolment, waiting for a first code (and when it was made). */
  pendingSecret: string | null;
  pendingSince: string | null;
};

export async function twoFactorOf(db: Queryable, userId: string): Promise<TwoFactorRow | null> {
  const { rows } = await db.query<{
    secret: string | null;
    enrolled_at: Date | null;
    last_step: string | null;
    pending_secret: string | null;
    pending_since: Date | null;
  }>("SELECT secret, enrolled_at, last_step, pending_secret, pending_since FROM two_factor WHERE user_id = $1", [userId]);
  const row = rows[0];
  if (!row) return null;
  return {
    secret: row.secret,
    enrolledAt: row.enrolled_at?.toISOString() ?? null,
    lastStep: row.last_step === null ? null : Number(row.last_step),
    pendingSecret: row.pending_secret,
    pendingSince: row.pending_since?.toISOString() ?? null,
  };
}

/** Keep a new secret waiting for its first code (replacing any other waiting one); the secret in use stays. */
export async function startEnrolment(db: Queryable, userId: string, sealedSecret: string, at: string): Promise<void> {
  await db.query(
    `INSERT INTO two_factor (user_id, pending_secret, pending_since) VALUES ($1, $2, $3)
     ON CONFLICT (user_id) DO UPDATE SET pending_secret = EXCLUDED.pending_secret, pending_since = EXCLUDED.pending_since`,
    [userId, sealedSecret, at],
  );
}

/**
 * The waiting secret `sealedSecret` was confirmed by a code of `step`: it becomes the one in use,
 * and the recovery codes are replaced by `recoveryHashes`, in one transaction. False when another
 * enrolment replaced the waiting secret meanwhile (its code is then not this one's).
 */
export async function confirmEnrolment(
  db: pg.Pool,
  change: { userId: string; sealedSecret: string; step: number; recoveryHashes: readonly string[] },
  at: string,
): Promise<boolean> {
  const client = await db.connect();
  try {
    await client.query("BEGIN");
    const confirmed = await client.query(
      `UPDATE two_factor SET secret = pending_secret, enrolled_at = $3, last_step = $4, pending_secret = NULL, pending_since = NULL
        WHERE user_id = $1 AND pending_secret = $2`,
      [change.userId, change.sealedSecret, at, change.step],
    );
    if (!confirmed.rowCount) {
      await client.query("ROLLBACK");
      return false;
    }
    await client.query("DELETE FROM recovery_codes WHERE user_id = $1", [change.userId]);
    await client.query("INSERT INTO recovery_codes (user_id, code_hash) SELECT $1, unnest($2::text[])", [
      change.userId,
      change.recoveryHashes,
    ]);
    await client.query("COMMIT");
    return true;
  } catch (e) {
    await client.query("ROLLBACK").catch(() => undefined);
    throw e;
  } finally {
    client.release();
  }
}

/**
 * Accept a code of time-step `step`: only if no code of it or of a later step was accepted before.
 * Atomic, so two requests with one code cannot both pass. False: the code was used already.
 */
export async function acceptStep(db: Queryable, userId: string, step: number): Promise<boolean> {
  const { rowCount } = await db.query(
    "UPDATE two_factor SET last_step = $2 WHERE user_id = $1 AND secret IS NOT NULL AND (last_step IS NULL OR last_step < $2)",
    [userId, step],
  );
  return rowCount === 1;
}

/** Use up a recovery code (by its hash): "spent" when it was used before, "unknown" when it is not one of the user's. */
export async function spendRecoveryCode(
  db: Queryable,
  userId: string,
  codeHash: string,
  at: string,
): Promise<"accepted" | "spent" | "unknown"> {
  const spent = await db.query("UPDATE recovery_codes SET used_at = $3 WHERE user_id = $1 AND code_hash = $2 AND used_at IS NULL", [
    userId,
    codeHash,
    at,
  ]);
  if (spent.rowCount) return "accepted";
  const known = await db.query("SELECT 1 FROM recovery_codes WHERE user_id = $1 AND code_hash = $2", [userId, codeHash]);
  return known.rowCount ? "spent" : "unknown";
}

export async function recoveryCodesLeft(db: Queryable, userId: string): Promise<number> {
  const { rows } = await db.query<{ left: number }>(
    "SELECT count(*)::int AS left FROM recovery_codes WHERE user_id = $1 AND used_at IS NULL",
    [userId],
  );
  return rows[0]!.left;
}

/** Two-factor sign-in off: the secrets and the recovery codes go. */
export async function turnOffTwoFactor(db: Queryable, userId: string): Promise<void> {
  await db.query("DELETE FROM recovery_codes WHERE user_id = $1", [userId]);
  await db.query("DELETE FROM two_factor WHERE user_id = $1", [userId]);
}
