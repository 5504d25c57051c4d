import type pg from "pg";
import { z } from "zod";
import { AdminTermsAcceptanceReply } from "@booking/contracts";
import {
  adminTermsAcceptanceReply,
  findAdminTermsAcceptance,
  termsAcceptanceListFrom,
  termsAcceptanceListSelect,
  termsAcceptanceListSort,
} from "@booking/projections";
import { refuse } from "../http/index.ts";
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
  RecordIdParams,
  SearchText,
  SqlWhere,
} from "./list-query.ts";

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
  sortable: termsAcceptanceListSort,
  defaultSort: ["accepted_at", "DESC"],
  uniqueKey: "t.user_id, t.version_id",
  filter: AcceptanceFilter,
};

function acceptanceWhere(f: z.output<typeof AcceptanceFilter>): SqlWhere {
  const w = new SqlWhere();
  if (f.id) w.add(`(t.user_id || ':' || t.version_id) = ANY(${w.param(f.id)})`);
  if (f.user_id) w.add(`t.user_id = ANY(${w.param(f.user_id)})`);
  if (f.version_id) w.add(`t.version_id = ANY(${w.param(f.version_id)})`);
  addTimeRange(w, "t.accepted_at", f.accepted_from, f.accepted_to);
  if (f.q) w.add(`u.email ILIKE ${w.param(containsPattern(f.q))}`);
  return w;
}

export type TermsAcceptancesAdminDeps = { db: pg.Pool };

export const termsAcceptancesAdmin: RoutePlugin<TermsAcceptancesAdminDeps> = async (app, { db }) => {
  app.get(
    "/terms-acceptances",
    { schema: { querystring: ListQueryString, response: { 200: z.array(AdminTermsAcceptanceReply) } } },
    async (request, reply) =>
      listPage(
        reply,
        db,
        spec,
        request.query,
        { select: termsAcceptanceListSelect, from: termsAcceptanceListFrom, where: acceptanceWhere },
        adminTermsAcceptanceReply,
      ),
  );

  // Same filters and sort as the list; the range is ignored: the export is every matching row. Text, not JSON: no response schema.
  app.get("/terms-acceptances/export.csv", { schema: { querystring: ListQueryString } }, async (request, reply) => {
    const list = parseListQuery(spec, request.query);
    return sendCsv(reply, db, "terms-acceptances.csv", {
      header: ["user_id", "email", "version_id", "accepted_at"],
      select: termsAcceptanceListSelect,
      from: termsAcceptanceListFrom,
      where: acceptanceWhere(list.filter),
      orderBy: orderBy(spec, list.sort),
      fields: (raw) => {
        const r = adminTermsAcceptanceReply(raw);
        return [r.user_id, r.email, r.version_id, r.accepted_at];
      },
    });
  });

  app.get(
    "/terms-acceptances/:id",
    { schema: { params: RecordIdParams, response: { 200: AdminTermsAcceptanceReply } } },
    async (request) => {
      const acceptance = await findAdminTermsAcceptance(db, request.params.id);
      if (!acceptance) refuse("not_found");
      return acceptance;
    },
  );
};
