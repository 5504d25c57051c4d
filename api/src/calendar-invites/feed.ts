import { createHmac, timingSafeEqual } from "node:crypto";
import type pg from "pg";

// The personal feed's secret address: `{userId}.{generation}.{signature}`. Anyone holding it reads
// that user's upcoming confirmed bookings (what a calendar app needs, no sign-in possible there);
// nothing else. Regenerating raises the generation, so an address given away stops working.

type Queryable = Pick<pg.Pool, "query">;

const keyOf = (secret: string) => createHmac("sha256", secret).update("calendar-feed/v1").digest();
const signatureOf = (secret: string, userId: string, generation: number) =>
  createHmac("sha256", keyOf(secret)).update(`${userId}.${generation}`).digest("base64url");

async function generationOf(db: Queryable, userId: string): Promise<number> {
  const { rows } = await db.query<{ generation: number }>("SELECT generation FROM calendar_feeds WHERE user_id = $1", [userId]);
  return rows[0]?.generation ?? 1;
}

const tokenOf = (secret: string, userId: string, generation: number) =>
  `${Buffer.from(userId).toString("base64url")}.${generation}.${signatureOf(secret, userId, generation)}`;

/** The user's current feed token. */
export async function feedToken(db: Queryable, secret: string, userId: string): Promise<string> {
  return tokenOf(secret, userId, await generationOf(db, userId));
}

/** Raise the user's feed generation: every address given out so far stops working. */
async function nextGeneration(db: Queryable, userId: string, now: string): Promise<number> {
  const { rows } = await db.query<{ generation: number }>(
    `INSERT INTO calendar_feeds (user_id, generation, updated_at) VALUES ($1, 2, $2)
     ON CONFLICT (user_id) DO UPDATE SET generation = calendar_feeds.generation + 1, updated_at = EXCLUDED.updated_at
     RETURNING generation`,
    [userId, now],
  );
  return rows[0]!.generation;
}

/** A new token; every earlier one stops working. */
export async function regenerateFeedToken(db: Queryable, secret: string, userId: string, now: string): Promise<string> {
  return tokenOf(secret, userId, await nextGeneration(db, userId, now));
}

/**
 * Signing out everywhere and a password change end the feed's address too: it is a key to the
 * user's bookings like a session is, and whoever they are locking out may hold it. The account
 * page then shows the new address, to subscribe again with. `db` may be the caller's transaction.
 */
export async function endFeedAddress(db: Queryable, userId: string, now: string): Promise<void> {
  await nextGeneration(db, userId, now);
}

/** Whose feed a token opens, or null (forged, or from before the last regeneration). */
export async function feedOwner(db: Queryable, secret: string, token: string): Promise<string | null> {
  const [encodedUser, generationText, signature, ...rest] = token.split(".");
  if (!encodedUser || !generationText || !signature || rest.length || !/^\d{1,9}$/.test(generationText)) return null;
  const userId = Buffer.from(encodedUser, "base64url").toString("utf8");
  const generation = Number(generationText);
  const expected = Buffer.from(signatureOf(secret, userId, generation));
  const given = Buffer.from(signature);
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) return null;
  return (await generationOf(db, userId)) === generation ? userId : null;
}
