import { z } from "zod";
import { refuse } from "../http/errors.ts";
import type { RoutePlugin } from "../http/route-plugin.ts";
import { sendCsv } from "./csv-export.ts";
import { IdText, ListQueryString, Moment, RecordIdParams, SearchText, SqlWhere, addTimeRange, containsPattern, oneOrMany, orderBy, parseListQuery, selectPage, sendList, type ListSpec } from "./list-query.ts";

// Terms acceptances, the audit of who accepted which terms version when (id = `${user_id}:${version_id}`),
// with the user's email; and the same list as CSV for export.

const AcceptanceFilter = z
  .object({
    id: oneOrMany(IdText).optional(),
    user_id: oneOrMany(IdText).optional(),
    version_id: oneOrMany(z.string().min(1).max(100)).optional(),
    accepted_from: Moment.optional(),
    accepted_to: Moment.optional(),
    /** Matches the email (contains). */
    q: SearchText.optional(),
  })
  .strict();

const spec: ListSpec<typeof AcceptanceFilter> = {
  resource: "terms-acceptances",
  sortable: { id: ["t.user_id", "t.version_id"], accepted_at: "t.accepted_at", user_id: "t.user_id", version_id: "t.version_id", email: "u.email" },
  defaultSort: ["accepted_at", "DESC"],
  uniqueKey: "t.user_id, t.version_id",
  filter: AcceptanceFilter,
};

// A user may be missing from `users` (read models catch up independently): keep the acceptance.
const FROM = "terms_acceptances t LEFT JOIN users u ON u.user_id = t.user_id";
const COLUMNS = "t.user_id, t.version_id, t.accepted_at, u.email";

type AcceptanceRow = { user_id: string; version_id: string; accepted_at: Date; email: string | null };

const toRecord = (r: AcceptanceRow) => ({ id: `${r.user_id}:${r.version_id}`, user_id: r.user_id, email: r.email, version_id: r.version_id, accepted_at: r.accepted_at.toISOString() });

function acceptanceWhere(f: z.output<typeof AcceptanceFilter>): SqlWhere {
  const w = new SqlWhere();
  if (f.id) w.add(`(t.user_id || ':' || t.version_id) = ANY(${w.param(f.id)})`);
  if (f.user_id) w.add(`t.user_id = ANY(${w.param(f.user_id)})`);
  if (f.version_id) w.add(`t.version_id = ANY(${w.param(f.version_id)})`);
  addTimeRange(w, "t.accepted_at", f.accepted_from, f.accepted_to);
  if (f.q) w.add(`u.email ILIKE ${w.param(containsPattern(f.q))}`);
  return w;
}

export const termsAcceptancesAdmin: RoutePlugin = async (app, ctx) => {
  app.get("/terms-acceptances", { schema: { querystring: ListQueryString } }, async (request, reply) => {
    const list = parseListQuery(spec, request.query);
    const where = acceptanceWhere(list.filter);
    const { rows, total } = await selectPage<AcceptanceRow>(ctx.db, { select: COLUMNS, from: FROM, where, orderBy: orderBy(spec, list.sort), offset: list.offset, limit: list.limit });
    return sendList(reply, spec.resource, list.offset, rows.map(toRecord), total);
  });

  // Same filters and sort as the list; the range is ignored: the export is every matching row.
  app.get("/terms-acceptances/export.csv", { schema: { querystring: ListQueryString } }, async (request, reply) => {
    const list = parseListQuery(spec, request.query);
    const where = acceptanceWhere(list.filter);
    return sendCsv<AcceptanceRow>(reply, ctx.db, "terms-acceptances.csv", {
      header: ["user_id", "email", "version_id", "accepted_at"],
      select: COLUMNS,
      from: FROM,
      where,
      orderBy: orderBy(spec, list.sort),
      fields: (r) => [r.user_id, r.email, r.version_id, r.accepted_at.toISOString()],
    });
  });

  app.get("/terms-acceptances/:id", { schema: { params: RecordIdParams } }, async (request) => {
    // User ids never hold a colon (contracts' Id); version ids might.
    const split = request.params.id.indexOf(":");
    if (split < 0) refuse("not_found");
    const { rows } = await ctx.db.query<AcceptanceRow>(`SELECT ${COLUMNS} FROM ${FROM} WHERE t.user_id = $1 AND t.version_id = $2`, [
      request.params.id.slice(0, split),
      request.params.id.slice(split + 1),
    ]);
    if (!rows[0]) refuse("not_found");
    return toRecord(rows[0]);
  });
};
