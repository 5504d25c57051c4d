import { randomUUID } from "node:crypto";
import type pg from "pg";
import { currentSchemaVersion, type Actor, type UserEvent, type UserRole } from "@booking/contracts";
import { WrongExpectedVersion, type AppendResult, type EventStore } from "@booking/event-store";
import type { Projected } from "../read-your-writes.ts";

export type AccountRole = UserRole;

export type Account = {
  userId: string;
  email: string;
  passwordHash: string;
  role: AccountRole;
  firstName: string | null;
  lastName: string | null;
};

type AccountRow = { user_id: string; email: string; password_hash: string; role: AccountRole; first_name: string | null; last_name: string | null };

const COLUMNS = "user_id, email, password_hash, role, first_name, last_name";

const toAccount = (r: AccountRow): Account => ({ userId: r.user_id, email: r.email, passwordHash: r.password_hash, role: r.role, firstName: r.first_name, lastName: r.last_name });

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
  return typeof e === "object" && e !== null && (e as { code?: unknown }).code === "23505" && (e as { constraint?: unknown }).constraint === "accounts_email";
}

export type NewAccount = { email: string; passwordHash: string; role: AccountRole; firstName: string | null; lastName: string | null };

/**
 * Create the account row and record `UserRegistered` on `user-{id}`, then wait until the read
 * models show the user. The row's insert stays uncommitted while the event is appended: a second
 * sign-up with the same email waits on the unique index and fails once this one commits, and a
 * failed append leaves no account behind.
 */
export async function registerAccount(deps: AccountWriteDeps, input: NewAccount, actor?: Actor): Promise<Account | "email_taken"> {
  const userId = randomUUID();
  const at = deps.clock();
  const registered: UserEvent = { type: "UserRegistered", data: { userId, email: input.email, role: input.role, firstName: input.firstName, lastName: input.lastName } };
  const client = await deps.db.connect();
  let written: AppendResult;
  try {
    await client.query("BEGIN");
    await client.query("INSERT INTO accounts (user_id, email, password_hash, role, first_name, last_name, created_at) VALUES ($1, $2, $3, $4, $5, $6, $7)", [
      userId,
      input.email,
      input.passwordHash,
      input.role,
      input.firstName,
      input.lastName,
      at,
    ]);
    written = await deps.store.append(
      `user-${userId}`,
      [{ type: registered.type, schemaVersion: currentSchemaVersion(registered.type), data: registered.data, metadata: { at, actor: actor ?? { userId, role: input.role } } }],
      "no_stream",
    );
    await client.query("COMMIT");
  } catch (e) {
    await client.query("ROLLBACK").catch(() => undefined);
    if (isEmailTaken(e)) return "email_taken";
    throw e;
  } finally {
    client.release();
  }
  await deps.projected({ events: written.events, version: written.nextVersion, position: written.position, replayed: false });
  return { userId, ...input };
}

/**
 * Record `UserRenamed` on `user-{id}` and keep the account row's names with it (sign-in replies
 * greet by the account's first name), then wait until the read models show it. False when the
 * user has no stream (a token for a user we never registered).
 */
export async function renameAccount(deps: AccountWriteDeps, actor: Actor, names: { firstName: string; lastName: string }): Promise<boolean> {
  const at = deps.clock();
  const renamed: UserEvent = { type: "UserRenamed", data: { userId: actor.userId, ...names } };
  const client = await deps.db.connect();
  let written: AppendResult;
  try {
    await client.query("BEGIN");
    await client.query("UPDATE accounts SET first_name = $2, last_name = $3 WHERE user_id = $1", [actor.userId, names.firstName, names.lastName]);
    written = await deps.store.append(
      `user-${actor.userId}`,
      [{ type: renamed.type, schemaVersion: currentSchemaVersion(renamed.type), data: renamed.data, metadata: { at, actor: { userId: actor.userId, role: actor.role } } }],
      "stream_exists",
    );
    await client.query("COMMIT");
  } catch (e) {
    await client.query("ROLLBACK").catch(() => undefined);
    if (e instanceof WrongExpectedVersion) return false;
    throw e;
  } finally {
    client.release();
  }
  await deps.projected({ events: written.events, version: written.nextVersion, position: written.position, replayed: false });
  return true;
}
