import {
  CURRENT_TERMS_VERSION,
  ERASED_FIRST_NAME,
  ERASED_LAST_NAME,
  erasedEmail,
  type AdminUserReply,
  type Migration,
  type UserRecord,
} from "@booking/contracts";
import { entityProjection, type ProjectedEvent } from "../projection.ts";
import type { Queryable } from "./bookings-queries.ts";
import { columnsOf, rowFromPg, type ColumnType } from "./column-types.ts";

/** A row of the `users` read model: declared once, in contracts. */
export type UserRow = UserRecord;

/** What Postgres holds in each column, tied to the Row by the compiler; the column list is its keys. */
const userColumnTypes = {
  user_id: "text",
  email: "text",
  role: "text",
  first_name: "text",
  last_name: "text",
  registered_at: "timestamptz",
  email_verified_at: "timestamptz",
  timezone: "text",
  reminder_mails: "boolean",
  erased_at: "timestamptz",
  stream_version: "bigint",
} as const satisfies Record<keyof UserRow, ColumnType>;

export const userColumns = columnsOf<UserRow>(userColumnTypes);

/** A row as pg returns it, in the Row's JSON shape. */
export const userFromPg = (raw: Record<string, unknown>): UserRow => rowFromPg<UserRow>(userColumnTypes, raw);

/**
 * Issue 16: whether the address is proven, and how the user wants mail. Rows from before it stay
 * unverified here (no event proved them; the API's accounts table counts those accounts verified),
 * with mails in UTC and reminders on, as a rebuild from their events would make them.
 */
export const userMigrations: readonly Migration[] = [
  {
    name: "008_users_verification_and_preferences",
    sql: `
      ALTER TABLE users
        ADD COLUMN email_verified_at timestamptz,
        ADD COLUMN timezone text,
        ADD COLUMN reminder_mails boolean NOT NULL DEFAULT true;
    `,
  },
  {
    // Issue 33.2: nobody was erased before the column, so null is what a rebuild gives every existing row (no new version).
    name: "029_users_erased_at",
    sql: "ALTER TABLE users ADD COLUMN erased_at timestamptz;",
  },
];

/** Users for the admin console and for mail: who signed up, as what, whether they proved their address, and how they want to hear from us. */
export const usersProjection = entityProjection<UserRow>({
  name: "users",
  version: 1,
  table: "users",
  key: ["user_id"],
  columns: userColumns,
  rowKey: ({ event }) => {
    switch (event.type) {
      case "UserRegistered":
      case "UserRenamed":
      case "EmailVerified":
      case "PreferencesSet":
      case "UserErased":
        return [event.data.userId];
      default:
        return null;
    }
  },
  evolve: evolveUser,
});

/** The whole rule of the read model: the row as it was (undefined: none yet) and an event, to the row after it. */
export function evolveUser(row: UserRow | undefined, { event, stored }: ProjectedEvent): UserRow | undefined {
  switch (event.type) {
    case "UserRegistered": {
      const d = event.data;
      // Registering again keeps the first registration's time, the proof of the address and the preferences.
      return {
        user_id: d.userId,
        email: d.email,
        role: d.role,
        first_name: d.firstName,
        last_name: d.lastName,
        registered_at: row?.registered_at ?? stored.metadata.at,
        email_verified_at: row?.email_verified_at ?? null,
        timezone: d.timezone ?? row?.timezone ?? null,
        reminder_mails: row?.reminder_mails ?? true,
        erased_at: row?.erased_at ?? null,
        stream_version: stored.version,
      };
    }
    case "UserRenamed":
      return row && { ...row, first_name: event.data.firstName, last_name: event.data.lastName, stream_version: stored.version };
    case "EmailVerified":
      // The first proof counts: a reset link followed later proves nothing new.
      return row && { ...row, email_verified_at: row.email_verified_at ?? stored.metadata.at, stream_version: stored.version };
    case "PreferencesSet":
      return row && { ...row, timezone: event.data.timezone, reminder_mails: event.data.reminderMails, stream_version: stored.version };
    case "UserErased":
      // Whatever their events said, the row names nobody now: the same markers their events read as once the key is gone.
      return (
        row && {
          ...row,
          email: erasedEmail(row.user_id),
          first_name: ERASED_FIRST_NAME,
          last_name: ERASED_LAST_NAME,
          erased_at: row.erased_at ?? event.data.at,
          stream_version: stored.version,
        }
      );
    default:
      return row;
  }
}

// The readers of `users`: one user, and the admin list (each user with their terms status, their
// bookings as either party and their expert profile, from the read models beside it).

export async function findUser(db: Queryable, userId: string): Promise<UserRow | null> {
  const raw = (await db.query(`SELECT ${userColumns.join(", ")} FROM users WHERE user_id = $1`, [userId])).rows[0];
  return raw ? userFromPg(raw) : null;
}

/**
 * The admin list's FROM clause. `$1` is always the current terms version (the list's first
 * parameter); at most one acceptance per user and version, so the join never repeats a user.
 */
export const userListFrom = "users u LEFT JOIN terms_acceptances ct ON ct.user_id = u.user_id AND ct.version_id = $1";

/** What the admin list adds to the row, and how Postgres holds it. */
const userListExtraTypes = {
  current_terms_accepted_at: "timestamptz",
  latest_terms_version: "text",
  bookings_as_creator: "bigint",
  bookings_as_expert: "bigint",
  expert_id: "text",
} as const satisfies Partial<Record<keyof AdminUserReply, ColumnType>>;

export const userListSelect = `${userColumns.map((c) => `u.${c}`).join(", ")},
  ct.accepted_at AS current_terms_accepted_at,
  (SELECT max(t.version_id) FROM terms_acceptances t WHERE t.user_id = u.user_id) AS latest_terms_version,
  (SELECT count(*) FROM bookings b WHERE b.creator_id = u.user_id) AS bookings_as_creator,
  (SELECT count(*) FROM bookings b WHERE b.expert_user_id = u.user_id) AS bookings_as_expert,
  (SELECT e.expert_id FROM experts e WHERE e.user_id = u.user_id ORDER BY e.expert_id LIMIT 1) AS expert_id`;

/** A row of the admin list as the console gets it (contracts' AdminUserReply), keyed by `id`. */
export function adminUserReply(raw: Record<string, unknown>): AdminUserReply {
  const row = userFromPg(raw);
  const extra = rowFromPg<Pick<AdminUserReply, keyof typeof userListExtraTypes>>(userListExtraTypes, raw);
  return {
    id: row.user_id,
    ...row,
    ...extra,
    current_terms_version: CURRENT_TERMS_VERSION,
    accepted_current_terms: extra.current_terms_accepted_at !== null,
  };
}

export async function findAdminUser(db: Queryable, userId: string): Promise<AdminUserReply | null> {
  const raw = (await db.query(`SELECT ${userListSelect} FROM ${userListFrom} WHERE u.user_id = $2`, [CURRENT_TERMS_VERSION, userId]))
    .rows[0];
  return raw ? adminUserReply(raw) : null;
}

/** The admin list's sort whitelist: the fields an operator may order by, as SQL over `u` and `ct`. */
export const userListSort: Record<string, string> = {
  id: "u.user_id",
  email: "lower(u.email)",
  role: "u.role",
  first_name: "u.first_name",
  last_name: "u.last_name",
  registered_at: "u.registered_at",
  current_terms_accepted_at: "ct.accepted_at",
};
