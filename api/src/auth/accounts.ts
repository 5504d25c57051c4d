import { randomUUID } from "node:crypto";
import type pg from "pg";
import { currentSchemaVersion, type Actor, type UserEvent, type UserRole } from "@booking/contracts";
import { WrongExpectedVersion, type AppendResult, type EventStore, type ExpectedVersion } from "@booking/event-store";
import { enqueueMail, type OutgoingMail } from "../mail/index.ts";
import type { Projected } from "../http/index.ts";

export type AccountRole = UserRole;

export type Account = {
  userId: string;
  email: string;
  passwordHash: string;
  role: AccountRole;
  firstName: string | null;
  lastName: string | null;
  /** ISO instant the owner proved the address; null: not yet (no sign-in until then). */
  emailVerifiedAt: string | null;
  /** ISO instant of the last password change; a reset link issued before it is spent. */
  passwordChangedAt: string | null;
};

type AccountRow = {
  user_id: string;
  email: string;
  password_hash: string;
  role: AccountRole;
  first_name: string | null;
  last_name: string | null;
  email_verified_at: Date | null;
  password_changed_at: Date | null;
};

const COLUMNS = "user_id, email, password_hash, role, first_name, last_name, email_verified_at, password_changed_at";

const toAccount = (r: AccountRow): Account => ({
  userId: r.user_id,
  email: r.email,
  passwordHash: r.password_hash,
  role: r.role,
  firstName: r.first_name,
  lastName: r.last_name,
  emailVerifiedAt: r.email_verified_at?.toISOString() ?? null,
  passwordChangedAt: r.password_changed_at?.toISOString() ?? null,
});

type Queryable = Pick<pg.Pool, "query">;

/** What writing an account takes: its table, the user's stream, the clock, and the wait for the read models. */
export type AccountWriteDeps = { db: pg.Pool; store: EventStore; clock: () => string; projected: Projected };

export async function findAccountByEmail(db: Queryable, email: string): Promise<Account | null> {
  const { rows } = await db.query<AccountRow>(`SELECT ${COLUMNS} FROM accounts WHERE lower(email) = lower($1)`, [email]);
  return rows[0] ? toAccount(rows[0]) : null;
}

export async function findAccount(db: Queryable, userId: string): Promise<Account | null> {
  const { rows } = await db.query<AccountRow>(`SELECT ${COLUMNS} FROM accounts WHERE user_id = $1`, [userId]);
  return rows[0] ? toAccount(rows[0]) : null;
}

export async function setPasswordHash(db: Queryable, userId: string, passwordHash: string, at: string): Promise<void> {
  await db.query("UPDATE accounts SET password_hash = $2, password_changed_at = $3 WHERE user_id = $1", [userId, passwordHash, at]);
}

function isEmailTaken(e: unknown): boolean {
  // 23505: unique_violation; only the email index can clash (user ids are fresh UUIDs).
  return (
    typeof e === "object" &&
    e !== null &&
    (e as { code?: unknown }).code === "23505" &&
    (e as { constraint?: unknown }).constraint === "accounts_email"
  );
}

/** What a change of an account row owes the user's stream; null: nothing changed (rolled back). */
type AccountChange<T> = { value: T; events: UserEvent[] } | null;

/**
 * Change account rows (and queue mail) in a transaction and append the events the change owes to
 * `user-{id}`, then wait until the read models show them. The rows stay uncommitted while the
 * events are appended: a racing change waits on the row locks, and a failed append leaves no row
 * changed. Resolves to null when `change` found nothing to do.
 */
async function changeAccount<T>(
  deps: AccountWriteDeps,
  userId: string,
  actor: Actor,
  expected: ExpectedVersion,
  change: (client: pg.PoolClient, at: string) => Promise<AccountChange<T>>,
): Promise<T | null> {
  const at = deps.clock();
  const client = await deps.db.connect();
  let done: NonNullable<AccountChange<T>>;
  let written: AppendResult | null = null;
  try {
    await client.query("BEGIN");
    const changed = await change(client, at);
    if (!changed) {
      await client.query("ROLLBACK");
      return null;
    }
    done = changed;
    if (done.events.length > 0) {
      written = await deps.store.append(
        `user-${userId}`,
        done.events.map((e) => ({ type: e.type, schemaVersion: currentSchemaVersion(e.type), data: e.data, metadata: { at, actor } })),
        expected,
      );
    }
    await client.query("COMMIT");
  } catch (e) {
    await client.query("ROLLBACK").catch(() => undefined);
    throw e;
  } finally {
    client.release();
  }
  if (written) await deps.projected({ events: written.events, version: written.nextVersion, position: written.position, replayed: false });
  return done.value;
}

export type NewAccount = {
  email: string;
  passwordHash: string;
  role: AccountRole;
  firstName: string | null;
  lastName: string | null;
  /** The IANA zone the browser reported (recorded on UserRegistered). */
  timezone?: string;
  /** Proven already (the admin account from the environment): EmailVerified is recorded with the registration. */
  verified?: boolean;
};

export type RegisterOptions = {
  /** Who registers the user (default: the user themselves). */
  actor?: Actor;
  /** The mail the registration owes (the verification link), queued in the same transaction as the account row. */
  mail?: (account: Account, at: string) => OutgoingMail;
};

/**
 * Create the account row (with the mail it owes) and record `UserRegistered` on `user-{id}`, then
 * wait until the read models show the user. A second sign-up with the same email waits on the
 * unique index and fails once this one commits.
 */
export async function registerAccount(
  deps: AccountWriteDeps,
  input: NewAccount,
  options: RegisterOptions = {},
): Promise<Account | "email_taken"> {
  const userId = randomUUID();
  const actor = options.actor ?? { userId, role: input.role };
  const { timezone, verified, ...fields } = input;
  try {
    const account = await changeAccount(deps, userId, actor, "no_stream", async (client, at) => {
      const account: Account = { userId, ...fields, emailVerifiedAt: verified ? at : null, passwordChangedAt: null };
      await client.query(
        "INSERT INTO accounts (user_id, email, password_hash, role, first_name, last_name, created_at, " +
          "email_verified_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)",
        [userId, account.email, account.passwordHash, account.role, account.firstName, account.lastName, at, account.emailVerifiedAt],
      );
      if (options.mail) await enqueueMail(client, options.mail(account, at));
      const events: UserEvent[] = [
        {
          type: "UserRegistered",
          data: {
            userId,
            email: account.email,
            role: account.role,
            firstName: account.firstName,
            lastName: account.lastName,
            ...(timezone && { timezone }),
          },
        },
      ];
      if (verified) events.push({ type: "EmailVerified", data: { userId, email: account.email } });
      return { value: account, events };
    });
    return account!;
  } catch (e) {
    if (isEmailTaken(e)) return "email_taken";
    throw e;
  }
}

/**
 * Record `UserRenamed` on `user-{id}` and keep the account row's names with it (sign-in replies
 * greet by the account's first name), then wait until the read models show it. False when the
 * user has no stream (a token for a user we never registered).
 */
export async function renameAccount(
  deps: AccountWriteDeps,
  actor: Actor,
  names: { firstName: string; lastName: string },
): Promise<boolean> {
  try {
    await changeAccount(deps, actor.userId, { userId: actor.userId, role: actor.role }, "stream_exists", async (client) => {
      await client.query("UPDATE accounts SET first_name = $2, last_name = $3 WHERE user_id = $1", [
        actor.userId,
        names.firstName,
        names.lastName,
      ]);
      return { value: true, events: [{ type: "UserRenamed", data: { userId: actor.userId, ...names } }] };
    });
    return true;
  } catch (e) {
    if (e instanceof WrongExpectedVersion) return false;
    throw e;
  }
}

const ownerOf = (account: Account): Actor => ({ userId: account.userId, role: account.role });

/**
 * The owner followed a verification link: mark the address proven and record `EmailVerified`.
 * Null when it already was (the link is spent): the row's condition makes two clicks of one link
 * verify once.
 */
export async function verifyEmail(deps: AccountWriteDeps, account: Account): Promise<Account | null> {
  return changeAccount(deps, account.userId, ownerOf(account), "any", async (client, at) => {
    const { rows } = await client.query<AccountRow>(
      `UPDATE accounts SET email_verified_at = $2 WHERE user_id = $1 AND email_verified_at IS NULL RETURNING ${COLUMNS}`,
      [account.userId, at],
    );
    if (!rows[0]) return null;
    const verified = toAccount(rows[0]);
    return { value: verified, events: [{ type: "EmailVerified", data: { userId: verified.userId, email: verified.email } }] };
  });
}

/**
 * A reset link issued at `issuedAt` (ms since epoch) is spent once the password changed at or
 * after it: the reset itself changes it, so a link works once.
 */
export function resetLinkSpent(account: Pick<Account, "passwordChangedAt">, issuedAt: number): boolean {
  return account.passwordChangedAt !== null && Date.parse(account.passwordChangedAt) >= issuedAt;
}

/**
 * Set a new password from a reset link: the row is locked and the link's single use checked again
 * under the lock (two uses of one link: the second finds it spent and gets null), the password
 * replaced, `endSessions` run in the same transaction, and the address counted as proven
 * (`EmailVerified` when it was not: following the link proved it).
 */
export async function resetPassword(
  deps: AccountWriteDeps,
  account: Account,
  change: { issuedAt: number; passwordHash: string },
  endSessions: (client: pg.PoolClient, at: string) => Promise<void>,
): Promise<Account | null> {
  return changeAccount(deps, account.userId, ownerOf(account), "any", async (client, at) => {
    const { rows } = await client.query<AccountRow>(`SELECT ${COLUMNS} FROM accounts WHERE user_id = $1 FOR UPDATE`, [account.userId]);
    const before = rows[0] ? toAccount(rows[0]) : null;
    if (!before || resetLinkSpent(before, change.issuedAt)) return null;
    const after: Account = {
      ...before,
      passwordHash: change.passwordHash,
      passwordChangedAt: at,
      emailVerifiedAt: before.emailVerifiedAt ?? at,
    };
    await client.query("UPDATE accounts SET password_hash = $2, password_changed_at = $3, email_verified_at = $4 WHERE user_id = $1", [
      after.userId,
      after.passwordHash,
      at,
      after.emailVerifiedAt,
    ]);
    await endSessions(client, at);
    const events: UserEvent[] = before.emailVerifiedAt
      ? []
      : [{ type: "EmailVerified", data: { userId: after.userId, email: after.email } }];
    return { value: after, events };
  });
}
