import {
  ERASED_FIRST_NAME,
  ERASED_LAST_NAME,
  ERASED_LINK,
  erasedSlug,
  expertProfileColumns,
  isVettingEventType,
  movesApplication,
  vettingStatusAfter,
  type Migration,
  type ExpertProfileReply,
  type ExpertRecord,
} from "@booking/contracts";
import { erased, erasedList } from "../erasure.ts";
import { entityProjection, type Erasure, type ProjectedEvent } from "../projection.ts";
import type { Queryable } from "./bookings-queries.ts";
import { columnsOf, rowFromPg, type ColumnType } from "./column-types.ts";

// The `experts` read model, whole: its Row, columns, rule, every query of it, the replies made
// of it and the admin list's sort whitelist. The api's routes and the console's list use these.

/** A row of the `experts` read model: declared once, in contracts (the admin console shows it as it is). */
export type ExpertRow = ExpertRecord;

/** What Postgres holds in each column, tied to the Row by the compiler; the column list is its keys. */
const expertColumnTypes = {
  expert_id: "text",
  user_id: "text",
  slug: "text",
  first_name: "text",
  last_name: "text",
  title: "text",
  bio: "text",
  tags: "text[]",
  profile_image: "text",
  published: "boolean",
  verified: "boolean",
  vetted_by: "text",
  vetting_status: "text",
  vetting_revision: "int",
  vetting_reason: "text",
  applied_at: "timestamptz",
  updated_at: "timestamptz",
  stream_version: "bigint",
} as const satisfies Record<keyof ExpertRow, ColumnType>;

export const expertColumns = columnsOf<ExpertRow>(expertColumnTypes);

/** A row as pg returns it, in the Row's JSON shape (numbers and ISO strings), parsed here once. */
export const expertFromPg = (raw: Record<string, unknown>): ExpertRow => rowFromPg<ExpertRow>(expertColumnTypes, raw);

/**
 * Issue 33.2: an erased expert's profile names nobody (their names, title, bio, tags, photo and slug read as the log's
 * markers, and so does every reason given about them) and is no longer listed.
 */
const expertErasure: Erasure = {
  rowsOf: () => "t.user_id = p.user_id",
  erase: (rows, person) =>
    (rows as ExpertRow[]).map((r) => ({
      ...r,
      slug: erasedSlug(person.userId),
      first_name: ERASED_FIRST_NAME,
      last_name: ERASED_LAST_NAME,
      title: erased(r.title),
      bio: erased(r.bio),
      tags: erasedList(r.tags),
      profile_image: erased(r.profile_image, ERASED_LINK),
      vetting_reason: erased(r.vetting_reason),
      published: false,
    })),
};

/** Expert profiles: the public listing and detail, with publish state and the vetting decision. */
export const expertsProjection = entityProjection<ExpertRow>({
  name: "experts",
  // Version 2: the application's status, revision, reason and time (issue 30); `verified` means approved.
  version: 2,
  table: "experts",
  key: ["expert_id"],
  columns: expertColumns,
  rowKey: ({ event }) =>
    event.type === "ExpertProfileSaved" || isVettingEventType(event.type) ? [(event.data as { expertId: string }).expertId] : null,
  evolve: evolveExpert,
  erasure: expertErasure,
});

export const expertMigrations: readonly Migration[] = [
  {
    // An expert with no application yet is a draft; the rebuild at start writes every row's status.
    name: "022_expert_vetting",
    sql: `
      ALTER TABLE experts ADD COLUMN vetting_status text NOT NULL DEFAULT 'draft',
        ADD COLUMN vetting_revision integer NOT NULL DEFAULT 0,
        ADD COLUMN vetting_reason text,
        ADD COLUMN applied_at timestamptz;
      CREATE INDEX experts_application_queue ON experts (applied_at) WHERE vetting_status IN ('submitted', 'in_review');
    `,
  },
];

/** The whole rule of the read model: the row as it was (undefined: none yet) and an event, to the row after it. */
export function evolveExpert(row: ExpertRow | undefined, { event, stored }: ProjectedEvent): ExpertRow | undefined {
  const at = stored.metadata.at;
  switch (event.type) {
    case "ExpertProfileSaved": {
      const { expertId, userId, slug, profile: p, published } = event.data;
      const saved = {
        expert_id: expertId,
        user_id: userId,
        slug,
        first_name: p.firstName,
        last_name: p.lastName,
        title: p.title,
        bio: p.bio,
        tags: p.tags,
        profile_image: p.profileImage,
        published,
        updated_at: at,
        stream_version: stored.version,
      };
      // Saving the profile keeps the vetting decision.
      const vetting = {
        verified: row?.verified ?? false,
        vetted_by: row?.vetted_by ?? null,
        vetting_status: row?.vetting_status ?? "draft",
        vetting_revision: row?.vetting_revision ?? 0,
        vetting_reason: row?.vetting_reason ?? null,
        applied_at: row?.applied_at ?? null,
      };
      return { ...vetting, ...saved };
    }
    default: {
      // Vetting an expert without a profile changes nothing; the engine refuses it, and older logs may hold it.
      if (!row || !movesApplication(row.vetting_status, event.type)) return row;
      const status = vettingStatusAfter(row.vetting_status, event.type);
      const data = event.data as { by?: string; reason?: string };
      const submitted = event.type === "ApplicationSubmitted";
      return {
        ...row,
        verified: status === "approved",
        // The admin who made the latest decision: a step that changed the status, other than the expert's own submission.
        vetted_by: !submitted && status !== row.vetting_status ? (data.by ?? null) : row.vetted_by,
        vetting_status: status,
        vetting_revision: row.vetting_revision + 1,
        vetting_reason: submitted ? null : (data.reason ?? row.vetting_reason),
        applied_at: submitted ? at : row.applied_at,
        updated_at: at,
        stream_version: stored.version,
      };
    }
  }
}

// Readers.

/** Every column of the table, as `e.column` (the alias every query here uses). */
export const expertSelectList = expertColumns.map((c) => `e.${c}`).join(", ");

export async function findExpertBySlug(db: Queryable, slug: string): Promise<ExpertRow | null> {
  const raw = (await db.query(`SELECT ${expertSelectList} FROM experts e WHERE e.slug = $1`, [slug])).rows[0];
  return raw ? expertFromPg(raw) : null;
}

export async function findExpert(db: Queryable, expertId: string): Promise<ExpertRow | null> {
  const raw = (await db.query(`SELECT ${expertSelectList} FROM experts e WHERE e.expert_id = $1`, [expertId])).rows[0];
  return raw ? expertFromPg(raw) : null;
}

/** The expert who offers a session (read beside the session itself, before its expert is known). */
export async function findExpertOfSession(db: Queryable, sessionId: string): Promise<ExpertRow | null> {
  const raw = (
    await db.query(`SELECT ${expertSelectList} FROM experts e JOIN sessions s ON s.expert_id = e.expert_id WHERE s.session_id = $1`, [
      sessionId,
    ])
  ).rows[0];
  return raw ? expertFromPg(raw) : null;
}

/** An expert's profile (contracts' ExpertProfileReply): the columns it names as they are, keyed by `id`. */
export function expertProfileReply(r: ExpertRow): ExpertProfileReply {
  const columns = Object.fromEntries(Object.keys(expertProfileColumns).map((c) => [c, r[c as keyof ExpertRow]])) as Pick<
    ExpertRow,
    keyof typeof expertProfileColumns
  >;
  return { id: r.expert_id, ...columns };
}

/** The admin list's sort whitelist: the columns an operator may order by, as SQL over `e`. */
export const expertListSort: Record<string, string | string[]> = {
  id: "e.expert_id",
  last_name: ["e.last_name", "e.first_name"],
  ...Object.fromEntries(
    (["slug", "first_name", "title", "published", "verified", "updated_at"] as const satisfies readonly (keyof ExpertRow)[]).map((c) => [
      c,
      `e.${c}`,
    ]),
  ),
};
