import type { AdminTermsAcceptanceReply, TermsAcceptanceRecord } from "@booking/contracts";
import { factsProjection, type ProjectedEvent } from "../projection.ts";
import type { Queryable } from "./bookings-queries.ts";
import { columnsOf, rowFromPg, type ColumnType } from "./column-types.ts";

/** A row of the `terms_acceptances` read model: declared once, in contracts. */
export type TermsAcceptanceRow = TermsAcceptanceRecord;

/** What Postgres holds in each column, tied to the Row by the compiler; the column list is its keys. */
const termsAcceptanceColumnTypes = {
  user_id: "text",
  version_id: "text",
  accepted_at: "timestamptz",
  stream_version: "bigint",
} as const satisfies Record<keyof TermsAcceptanceRow, ColumnType>;

export const termsAcceptanceColumns = columnsOf<TermsAcceptanceRow>(termsAcceptanceColumnTypes);

/** A row as pg returns it, in the Row's JSON shape. */
export const termsAcceptanceFromPg = (raw: Record<string, unknown>): TermsAcceptanceRow =>
  rowFromPg<TermsAcceptanceRow>(termsAcceptanceColumnTypes, raw);

/** The whole rule: an acceptance is a fact, recorded once per user and version (the key keeps the first). */
export function termsAcceptanceRows({ event, stored }: ProjectedEvent): TermsAcceptanceRow[] {
  if (event.type !== "TermsAccepted") return [];
  return [
    { user_id: event.data.userId, version_id: event.data.versionId, accepted_at: event.data.acceptedAt, stream_version: stored.version },
  ];
}

/** Every acceptance of a terms version, for the audit. */
export const termsAcceptancesProjection = factsProjection<TermsAcceptanceRow>({
  name: "terms_acceptances",
  version: 1,
  table: "terms_acceptances",
  key: ["user_id", "version_id"],
  columns: termsAcceptanceColumns,
  rows: termsAcceptanceRows,
});

// The admin list: each acceptance with the user's email. A user may be missing from `users`
// (read models catch up independently): the acceptance is kept, its email null.

export const termsAcceptanceListFrom = "terms_acceptances t LEFT JOIN users u ON u.user_id = t.user_id";
export const termsAcceptanceListSelect = `${termsAcceptanceColumns.map((c) => `t.${c}`).join(", ")}, u.email`;

/** A row of the admin list as the console gets it (contracts' AdminTermsAcceptanceReply), keyed `{user_id}:{version_id}`. */
export function adminTermsAcceptanceReply(raw: Record<string, unknown>): AdminTermsAcceptanceReply {
  const row = termsAcceptanceFromPg(raw);
  return { id: `${row.user_id}:${row.version_id}`, ...row, email: typeof raw.email === "string" ? raw.email : null };
}

/** One acceptance by the admin list's id; null when the id names none. */
export async function findAdminTermsAcceptance(db: Queryable, id: string): Promise<AdminTermsAcceptanceReply | null> {
  // User ids never hold a colon (contracts' Id); version ids might.
  const split = id.indexOf(":");
  if (split < 0) return null;
  const raw = (
    await db.query(`SELECT ${termsAcceptanceListSelect} FROM ${termsAcceptanceListFrom} WHERE t.user_id = $1 AND t.version_id = $2`, [
      id.slice(0, split),
      id.slice(split + 1),
    ])
  ).rows[0];
  return raw ? adminTermsAcceptanceReply(raw) : null;
}

/** The admin list's sort whitelist: the fields an operator may order by, as SQL over `t` and `u`. */
export const termsAcceptanceListSort: Record<string, string | readonly string[]> = {
  id: ["t.user_id", "t.version_id"],
  accepted_at: "t.accepted_at",
  user_id: "t.user_id",
  version_id: "t.version_id",
  email: "u.email",
};
