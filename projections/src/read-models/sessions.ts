import {
  DEFAULT_CURRENCY,
  FULL_REFUND_NOTICE_HOURS,
  RESCHEDULE_NOTICE_HOURS,
  type Migration,
  type SessionDefinition,
  type SessionRecord,
  type SessionReply,
} from "@booking/contracts";
import { entityProjection, type ProjectedEvent } from "../projection.ts";
import type { Queryable } from "./bookings-queries.ts";
import { columnsOf, rowFromPg, type ColumnType } from "./column-types.ts";

// The `sessions` read model, whole: its Row, columns, rule, every query of it, the session reply
// and the admin list's sort whitelist. The api's routes and the console's list use these.

/** A row of the `sessions` read model: declared once, in contracts (the admin console shows it as it is). */
export type SessionRow = SessionRecord;

/** What Postgres holds in each column, tied to the Row by the compiler; the column list is its keys. */
const sessionColumnTypes = {
  session_id: "text",
  expert_id: "text",
  title: "text",
  description: "text",
  price_cents: "bigint",
  length_minutes: "int",
  prep_questions: "jsonb",
  session_details: "text",
  ideal_for: "jsonb",
  instant_booking: "boolean",
  currency: "text",
  full_refund_hours: "int",
  reschedule_hours: "int",
  status: "text",
  deleted: "boolean",
  created_at: "timestamptz",
  updated_at: "timestamptz",
  stream_version: "bigint",
} as const satisfies Record<keyof SessionRow, ColumnType>;

export const sessionColumns = columnsOf<SessionRow>(sessionColumnTypes);

/** A row as pg returns it, in the Row's JSON shape (numbers and ISO strings), parsed here once. */
export const sessionFromPg = (raw: Record<string, unknown>): SessionRow => rowFromPg<SessionRow>(sessionColumnTypes, raw);

const described = (d: SessionDefinition) => ({
  title: d.title,
  description: d.description,
  price_cents: d.priceCents,
  length_minutes: d.lengthMinutes,
  prep_questions: d.prepQuestions,
  session_details: d.sessionDetails,
  ideal_for: d.idealFor,
  instant_booking: d.instantBooking ?? false,
  currency: d.currency ?? DEFAULT_CURRENCY,
  full_refund_hours: d.fullRefundHours ?? FULL_REFUND_NOTICE_HOURS,
  reschedule_hours: d.rescheduleHours ?? RESCHEDULE_NOTICE_HOURS,
});

/** Changes to the table after 001_read_models (schema.ts), oldest first. */
export const sessionMigrations: readonly Migration[] = [
  {
    // Sessions saved before it have it off, as their events say (no instantBooking): nothing to backfill.
    name: "015_sessions_instant_booking",
    sql: "ALTER TABLE sessions ADD COLUMN instant_booking boolean NOT NULL DEFAULT false;",
  },
  {
    // Sessions saved before issue 29.8 are priced in US dollars, as their events say (no currency): the default is the backfill.
    name: "018_sessions_currency",
    sql: "ALTER TABLE sessions ADD COLUMN currency text NOT NULL DEFAULT 'USD';",
  },
  {
    // Issue 31.4: sessions saved before it keep the policy's 24 hours for both, as their events say (none): the defaults are the backfill.
    name: "024_sessions_cut_offs",
    sql: "ALTER TABLE sessions ADD COLUMN full_refund_hours int NOT NULL DEFAULT 24, ADD COLUMN reschedule_hours int NOT NULL DEFAULT 24;",
  },
];

/** Bookable sessions of each expert. */
export const sessionsProjection = entityProjection<SessionRow>({
  name: "sessions",
  version: 1,
  table: "sessions",
  key: ["session_id"],
  columns: sessionColumns,
  rowKey: ({ event }) => {
    switch (event.type) {
      case "SessionCreated":
      case "SessionUpdated":
      case "SessionPublished":
      case "SessionUnpublished":
      case "SessionDeleted":
        return [event.data.sessionId];
      default:
        return null;
    }
  },
  evolve: evolveSession,
});

/** The whole rule of the read model: the row as it was (undefined: none yet) and an event, to the row after it. */
export function evolveSession(row: SessionRow | undefined, { event, stored }: ProjectedEvent): SessionRow | undefined {
  const at = stored.metadata.at;
  if (event.type === "SessionCreated") {
    if (row) return row; // created once
    const { sessionId, expertId, status, definition } = event.data;
    return {
      session_id: sessionId,
      expert_id: expertId,
      ...described(definition),
      status,
      deleted: false,
      created_at: at,
      updated_at: at,
      stream_version: stored.version,
    };
  }
  // Changes to a session that was never created change nothing.
  if (!row) return row;
  const updated = { ...row, updated_at: at, stream_version: stored.version };
  switch (event.type) {
    case "SessionUpdated":
      return { ...updated, ...described(event.data.definition) };
    case "SessionPublished":
      return { ...updated, status: "published" };
    case "SessionUnpublished":
      return { ...updated, status: "draft" };
    case "SessionDeleted":
      return { ...updated, deleted: true };
    default:
      return row;
  }
}

// Readers.

/** Every column of the table, as `s.column` (the alias every query here uses). */
export const sessionSelectList = sessionColumns.map((c) => `s.${c}`).join(", ");

/** A session with the name of its expert (from the experts read model; null while it has none). */
export type SessionWithExpert = SessionRow & { expert_first_name: string | null; expert_last_name: string | null };

const WITH_EXPERT = `SELECT ${sessionSelectList}, e.first_name AS expert_first_name, e.last_name AS expert_last_name
  FROM sessions s LEFT JOIN experts e ON e.expert_id = s.expert_id`;

const withExpert = (raw: Record<string, unknown>): SessionWithExpert => ({
  ...sessionFromPg(raw),
  expert_first_name: raw.expert_first_name as string | null,
  expert_last_name: raw.expert_last_name as string | null,
});

/** A session that is not deleted, with its expert's name. */
export async function findSession(db: Queryable, sessionId: string): Promise<SessionWithExpert | null> {
  const raw = (await db.query(`${WITH_EXPERT} WHERE s.session_id = $1 AND NOT s.deleted`, [sessionId])).rows[0];
  return raw ? withExpert(raw) : null;
}

/** The row as it is, deleted or not (the console shows deleted sessions too). */
export async function sessionRecord(db: Queryable, sessionId: string): Promise<SessionRow | null> {
  const raw = (await db.query(`SELECT ${sessionSelectList} FROM sessions s WHERE s.session_id = $1`, [sessionId])).rows[0];
  return raw ? sessionFromPg(raw) : null;
}

/** An expert's sessions that are not deleted, oldest first; drafts only for the expert's own views. */
export async function sessionsOfExpert(db: Queryable, expertId: string, includeDrafts: boolean): Promise<SessionWithExpert[]> {
  const { rows } = await db.query(
    `${WITH_EXPERT} WHERE s.expert_id = $1 AND NOT s.deleted ${includeDrafts ? "" : "AND s.status = 'published'"} ORDER BY s.created_at, s.session_id`,
    [expertId],
  );
  return rows.map(withExpert);
}

/** What a session's reply is made of: its definition, status and expert (a session just written may not be in the read model yet). */
export type SessionReplySource = Pick<
  SessionWithExpert,
  "session_id" | "expert_id" | keyof ReturnType<typeof described> | "status" | "expert_first_name" | "expert_last_name"
>;

/** The session as the spec's calls return it (contracts' SessionReply): whole dollars, prep questions both ways, the expert's name. */
export function sessionReply(r: SessionReplySource): SessionReply {
  const q = r.prep_questions;
  return {
    id: r.session_id,
    expert_id: r.expert_id,
    title: r.title,
    description: r.description,
    price: r.price_cents / 100,
    length_minutes: r.length_minutes,
    prep_question_1: q[0] ?? null,
    prep_question_2: q[1] ?? null,
    prep_question_3: q[2] ?? null,
    prep_questions: q,
    session_details: r.session_details,
    ideal_for: r.ideal_for,
    instant_booking: r.instant_booking,
    currency: r.currency,
    full_refund_hours: r.full_refund_hours,
    reschedule_hours: r.reschedule_hours,
    status: r.status,
    expert: { id: r.expert_id, name: [r.expert_first_name, r.expert_last_name].filter(Boolean).join(" "), first_name: r.expert_first_name },
  };
}

/** A session as its definition and status say, before the read model shows it (its expert unnamed). */
export function sessionReplyOfDefinition(
  sessionId: string,
  expertId: string,
  status: SessionRow["status"],
  definition: SessionDefinition,
): SessionReply {
  return sessionReply({
    session_id: sessionId,
    expert_id: expertId,
    ...described(definition),
    status,
    expert_first_name: null,
    expert_last_name: null,
  });
}

/** The admin list's sort whitelist: the columns an operator may order by, as SQL over `s`. */
export const sessionListSort: Record<string, string> = {
  id: "s.session_id",
  ...Object.fromEntries(
    (
      [
        "title",
        "expert_id",
        "status",
        "deleted",
        "price_cents",
        "length_minutes",
        "created_at",
        "updated_at",
      ] as const satisfies readonly (keyof SessionRow)[]
    ).map((c) => [c, `s.${c}`]),
  ),
};
