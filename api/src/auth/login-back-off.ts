import { createHash, randomBytes } from "node:crypto";
import type pg from "pg";

// Failed sign-ins are throttled per address signed in to, whatever client addresses they come
// from (password spraying from many machines), without letting an attacker lock the owner out:
//
// - Every try from an unknown browser is counted against the address before the password is
//   checked (so a burst of parallel tries cannot all slip in) and the count is cleared when the
//   password is right. Past `freeFailures`, the address waits `firstDelaySeconds`, doubling with
//   each further try up to `maxDelaySeconds`; a try during the wait is refused unchecked, even
//   with the right password, so the attacker learns nothing meanwhile.
// - A browser that signed in to the account before keeps a random token in an HttpOnly cookie (only
//   its sha256 is stored, with the account). From it the owner's password works at once, whatever
//   the wait; its own wrong passwords are counted apart, and after `freeFailures` in a row it is no
//   longer trusted (a stolen cookie buys a few guesses, not a bypass).
// - Addresses with no account are counted just the same: being throttled tells nobody whether an
//   account exists. Only hashes of addresses are stored.

/** Failed sign-ins to one address: how many are free, the first wait past them (doubling each time), its cap, and when they are forgotten. */
export const LOGIN_BACK_OFF = { freeFailures: 5, firstDelaySeconds: 2, maxDelaySeconds: 15 * 60, forgetAfterSeconds: 60 * 60 } as const;

/** The cookie naming a browser that signed in before, how long it is kept, and how many accounts' browsers are remembered at most. */
export const KNOWN_DEVICE = { cookie: "known_device", maxAgeSeconds: 365 * 24 * 60 * 60, perAccount: 20 } as const;

const sha256 = (text: string) => createHash("sha256").update(text).digest("base64url");
export const addressHash = (email: string) => sha256(email.trim().toLowerCase());

/** "2 seconds", "1 second", "15 minutes": the wait as the refusal's message says it. */
export function waitInWords(seconds: number): string {
  if (seconds < 120) return seconds === 1 ? "1 second" : `${seconds} seconds`;
  return `${Math.ceil(seconds / 60)} minutes`;
}

/** The count after this try: restarted when the last was longer ago than the back-off forgets. */
const NEXT_COUNT = "CASE WHEN f.last_at <= $2::timestamptz - make_interval(secs => $6::int) THEN 1 ELSE f.failures + 1 END";
/** The wait after `count` tries: none while they are free, then doubling from the first delay up to the cap. */
const lockAfter = (count: string) =>
  `CASE WHEN ${count} >= $3::int THEN $2::timestamptz + make_interval(secs => least($5::int, $4::int * power(2, least(${count} - $3::int, 30)))) END`;

/**
 * Count a try against the address unless it is waiting. Atomic: concurrent tries from any
 * process are counted one by one. A row back when counted; none while the address waits.
 */
const COUNT_TRY = `
  INSERT INTO login_failures AS f (address_hash, failures, last_at, locked_until)
  VALUES ($1, 1, $2, ${lockAfter("1")})
  ON CONFLICT (address_hash) DO UPDATE SET failures = ${NEXT_COUNT}, last_at = $2, locked_until = ${lockAfter(NEXT_COUNT)}
  WHERE f.locked_until IS NULL OR f.locked_until <= $2
  RETURNING f.failures`;

let counted = 0;
const PRUNE_EVERY_TRIES = 200;

export type Admission = { admitted: true; knownDevice: boolean } | { admitted: false; retryAfterSeconds: number };

/**
 * Whether a sign-in to `email` may be checked now: from a browser the account knows, yes (its try
 * counted against the browser); else if the address is not waiting (the try counted against it).
 */
export async function admitLogin(
  db: pg.Pool,
  attempt: { email: string; userId: string | null; device: string | null },
  now: string,
): Promise<Admission> {
  if (attempt.userId && attempt.device) {
    const oldest = new Date(Date.parse(now) - KNOWN_DEVICE.maxAgeSeconds * 1000).toISOString();
    const known = await db.query(
      "UPDATE known_devices SET failures = failures + 1 WHERE token_hash = $1 AND user_id = $2 AND failures < $3 AND last_used_at > $4 RETURNING 1",
      [sha256(attempt.device), attempt.userId, LOGIN_BACK_OFF.freeFailures, oldest],
    );
    if (known.rowCount) return { admitted: true, knownDevice: true };
  }
  const { freeFailures, firstDelaySeconds, maxDelaySeconds, forgetAfterSeconds } = LOGIN_BACK_OFF;
  const address = addressHash(attempt.email);
  const { rows } = await db.query(COUNT_TRY, [address, now, freeFailures, firstDelaySeconds, maxDelaySeconds, forgetAfterSeconds]);
  if (++counted % PRUNE_EVERY_TRIES === 0)
    void db
      .query("DELETE FROM login_failures WHERE last_at < $1", [new Date(Date.parse(now) - forgetAfterSeconds * 1000).toISOString()])
      .catch(() => undefined);
  if (rows.length > 0) return { admitted: true, knownDevice: false };
  const waiting = await db.query<{ locked_until: Date }>("SELECT locked_until FROM login_failures WHERE address_hash = $1", [address]);
  const until = waiting.rows[0]?.locked_until?.getTime() ?? Date.parse(now);
  return { admitted: false, retryAfterSeconds: Math.max(1, Math.ceil((until - Date.parse(now)) / 1000)) };
}

/**
 * The right password was given: the address's count starts afresh (unless the try came from a
 * known browser, which leaves an attacker's count standing), and the browser's own count too.
 */
export async function passwordProven(
  db: pg.Pool,
  attempt: { email: string; userId: string; device: string | null; knownDevice: boolean },
): Promise<void> {
  if (attempt.knownDevice && attempt.device) {
    await db.query("UPDATE known_devices SET failures = 0 WHERE token_hash = $1 AND user_id = $2", [
      sha256(attempt.device),
      attempt.userId,
    ]);
  } else {
    await db.query("DELETE FROM login_failures WHERE address_hash = $1", [addressHash(attempt.email)]);
  }
}

const DEVICE_TOKEN = /^[A-Za-z0-9_-]{43}$/;

/** The browser's known-device token from its Cookie header, if it sent a well-formed one. */
export function deviceTokenOf(cookieHeader: string | undefined): string | null {
  for (const part of cookieHeader?.split(";") ?? []) {
    const [name, value] = part.trim().split("=", 2);
    if (name === KNOWN_DEVICE.cookie && value && DEVICE_TOKEN.test(value)) return value;
  }
  return null;
}

/**
 * Remember the browser that just signed in to `userId` (its token, or a new one) and answer the
 * Set-Cookie that keeps it. One token per browser serves every account signed in from it; an
 * account remembers its most recent browsers only.
 */
export async function rememberDevice(
  db: pg.Pool,
  userId: string,
  device: string | null,
  now: string,
  cookie: { path: string; secure: boolean },
): Promise<string> {
  const token = device ?? randomBytes(32).toString("base64url");
  await db.query(
    `INSERT INTO known_devices (token_hash, user_id, failures, last_used_at) VALUES ($1, $2, 0, $3)
     ON CONFLICT (token_hash, user_id) DO UPDATE SET failures = 0, last_used_at = EXCLUDED.last_used_at`,
    [sha256(token), userId, now],
  );
  await db.query(
    `DELETE FROM known_devices WHERE user_id = $1 AND token_hash NOT IN
       (SELECT token_hash FROM known_devices WHERE user_id = $1 ORDER BY last_used_at DESC LIMIT $2)`,
    [userId, KNOWN_DEVICE.perAccount],
  );
  const attributes = [
    `Path=${cookie.path}`,
    `Max-Age=${KNOWN_DEVICE.maxAgeSeconds}`,
    "HttpOnly",
    "SameSite=Strict",
    ...(cookie.secure ? ["Secure"] : []),
  ];
  return [`${KNOWN_DEVICE.cookie}=${token}`, ...attributes].join("; ");
}
