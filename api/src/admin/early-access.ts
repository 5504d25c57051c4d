import type pg from "pg";
import { z } from "zod";
import { EarlyAccessRequestRecord, EarlyAccessRole } from "@booking/contracts";
import { earlyAccessListSort, earlyAccessRequestFromPg, earlyAccessSelectList } from "../early-access/index.ts";
import type { RoutePlugin } from "../http/index.ts";
import { sendCsv } from "./csv-export.ts";
import {
  addTimeRange,
  containsPattern,
  IdText,
  listPage,
  ListQueryString,
  type ListSpec,
  Moment,
  oneOrMany,
  orderBy,
  parseListQuery,
  SearchText,
  SqlWhere,
} from "./list-query.ts";

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
  sortable: earlyAccessListSort,
  defaultSort: ["created_at", "DESC"],
  uniqueKey: "r.id",
  filter: RequestFilter,
};

const FROM = "early_access_requests r";

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

export type EarlyAccessAdminDeps = { db: pg.Pool };

export const earlyAccessAdmin: RoutePlugin<EarlyAccessAdminDeps> = async (app, { db }) => {
  app.get(
    "/early-access",
    { schema: { querystring: ListQueryString, response: { 200: z.array(EarlyAccessRequestRecord) } } },
    async (request, reply) =>
      listPage(
        reply,
        db,
        spec,
        request.query,
        { select: earlyAccessSelectList, from: FROM, where: requestWhere },
        earlyAccessRequestFromPg,
      ),
  );

  // Same filters and sort as the list; the range is ignored: the export is every matching row. Text, not JSON: no response schema.
  app.get("/early-access/export.csv", { schema: { querystring: ListQueryString } }, async (request, reply) => {
    const list = parseListQuery(spec, request.query);
    const header = [
      "id",
      "name",
      "email",
      "role",
      "need",
      "created_at",
      "updated_at",
    ] as const satisfies readonly (keyof EarlyAccessRequestRecord)[];
    return sendCsv(reply, db, "early-access.csv", {
      header,
      select: earlyAccessSelectList,
      from: FROM,
      where: requestWhere(list.filter),
      orderBy: orderBy(spec, list.sort),
      fields: (raw) => {
        const r = earlyAccessRequestFromPg(raw);
        return header.map((column) => r[column]);
      },
    });
  });
};
