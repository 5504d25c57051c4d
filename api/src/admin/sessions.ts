import type pg from "pg";
import { z } from "zod";
import { AdminSessionReply, SessionStatus } from "@booking/contracts";
import { sessionFromPg, sessionListSort, sessionRecord, sessionSelectList, type SessionRow } from "@booking/projections";
import { refuse } from "../http/index.ts";
import type { RoutePlugin } from "../http/index.ts";
import {
  containsPattern,
  Flag,
  IdText,
  listPage,
  ListQueryString,
  type ListSpec,
  oneOrMany,
  RecordIdParams,
  SearchText,
  SqlWhere,
} from "./list-query.ts";

// Bookable sessions, from the `sessions` read model (id = session_id), deleted ones included
// (the `deleted` filter hides or shows them).

const SessionFilter = z
  .object({
    id: oneOrMany(IdText).optional(),
    expert_id: IdText.optional(),
    status: oneOrMany(SessionStatus).optional(),
    deleted: Flag.optional(),
    /** Matches the title (contains) or the session id (exactly). */
    q: SearchText.optional(),
  })
  .strict();

const spec: ListSpec<typeof SessionFilter> = {
  resource: "sessions",
  sortable: sessionListSort,
  defaultSort: ["updated_at", "DESC"],
  uniqueKey: "s.session_id",
  filter: SessionFilter,
};

/** A row as the console gets it: the read model's own, keyed by `id` for react-admin. */
const toRecord = (row: SessionRow): AdminSessionReply => ({ id: row.session_id, ...row });

function sessionWhere(f: z.output<typeof SessionFilter>): SqlWhere {
  const w = new SqlWhere();
  if (f.id) w.add(`s.session_id = ANY(${w.param(f.id)})`);
  if (f.expert_id) w.add(`s.expert_id = ${w.param(f.expert_id)}`);
  if (f.status) w.add(`s.status = ANY(${w.param(f.status)})`);
  if (f.deleted !== undefined) w.add(`s.deleted = ${w.param(f.deleted)}`);
  if (f.q) w.add(`(s.title ILIKE ${w.param(containsPattern(f.q))} OR s.session_id = ${w.param(f.q)})`);
  return w;
}

/** What the console's session routes use: the read models. */
export type SessionAdminDeps = { db: pg.Pool };

export const sessionsAdmin: RoutePlugin<SessionAdminDeps> = async (app, { db }) => {
  app.get(
    "/sessions",
    { schema: { querystring: ListQueryString, response: { 200: z.array(AdminSessionReply) } } },
    async (request, reply) =>
      listPage(reply, db, spec, request.query, { select: sessionSelectList, from: "sessions s", where: sessionWhere }, (raw) =>
        toRecord(sessionFromPg(raw)),
      ),
  );

  app.get("/sessions/:id", { schema: { params: RecordIdParams, response: { 200: AdminSessionReply } } }, async (request) => {
    const row = await sessionRecord(db, request.params.id);
    return row ? toRecord(row) : refuse("not_found");
  });
};
