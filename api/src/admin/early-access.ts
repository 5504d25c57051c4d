import { z } from "zod";
import { EarlyAccessRole } from "@booking/contracts";
import type { RoutePlugin } from "../http/route-plugin.ts";
import { sendCsv } from "./csv-export.ts";
import { IdText, ListQueryString, Moment, SearchText, SqlWhere, addTimeRange, containsPattern, oneOrMany, orderBy, parseListQuery, selectPage, sendList, type ListSpec } from "./list-query.ts";

// Early-access requests from the landing page (one per e-mail address, the latest request kept),
// and the same list as CSV for export.

const RequestFilter = z
  .object({
    id: oneOrMany(IdText).optional(),
    role: oneOrMany(EarlyAccessRole).optional(),
    created_from: Moment.optional(),
    created_to: Moment.optional(),
    /** Matches the name, e-mail or need (contains). */
    q: SearchText.optional(),
  })
  .strict();

const spec: ListSpec<typeof RequestFilter> = {
  resource: "early-access",
  sortable: { id: "r.id", name: "lower(r.name)", email: "r.email", role: "r.role", created_at: "r.created_at", updated_at: "r.updated_at" },
  defaultSort: ["created_at", "DESC"],
  uniqueKey: "r.id",
  filter: RequestFilter,
};

const FROM = "early_access_requests r";
const COLUMNS = "r.id, r.name, r.email, r.role, r.need, r.created_at, r.updated_at";

type RequestRow = { id: string; name: string; email: string; role: string; need: string; created_at: Date; updated_at: Date };

const toRecord = (r: RequestRow) => ({ id: r.id, name: r.name, email: r.email, role: r.role, need: r.need, created_at: r.created_at.toISOString(), updated_at: r.updated_at.toISOString() });

function requestWhere(f: z.output<typeof RequestFilter>): SqlWhere {
  const w = new SqlWhere();
  if (f.id) w.add(`r.id = ANY(${w.param(f.id)})`);
  if (f.role) w.add(`r.role = ANY(${w.param(f.role)})`);
  addTimeRange(w, "r.created_at", f.created_from, f.created_to);
  if (f.q) {
    const pattern = w.param(containsPattern(f.q));
    w.add(`(r.name ILIKE ${pattern} OR r.email ILIKE ${pattern} OR r.need ILIKE ${pattern})`);
  }
  return w;
}

export const earlyAccessAdmin: RoutePlugin = async (app, ctx) => {
  app.get("/early-access", { schema: { querystring: ListQueryString } }, async (request, reply) => {
    const list = parseListQuery(spec, request.query);
    const where = requestWhere(list.filter);
    const { rows, total } = await selectPage<RequestRow>(ctx.db, { select: COLUMNS, from: FROM, where, orderBy: orderBy(spec, list.sort), offset: list.offset, limit: list.limit });
    return sendList(reply, spec.resource, list.offset, rows.map(toRecord), total);
  });

  // Same filters and sort as the list; the range is ignored: the export is every matching row.
  app.get("/early-access/export.csv", { schema: { querystring: ListQueryString } }, async (request, reply) => {
    const list = parseListQuery(spec, request.query);
    return sendCsv<RequestRow>(reply, ctx.db, "early-access.csv", {
      header: ["id", "name", "email", "role", "need", "created_at", "updated_at"],
      select: COLUMNS,
      from: FROM,
      where: requestWhere(list.filter),
      orderBy: orderBy(spec, list.sort),
      fields: (r) => [r.id, r.name, r.email, r.role, r.need, r.created_at.toISOString(), r.updated_at.toISOString()],
    });
  });
};
