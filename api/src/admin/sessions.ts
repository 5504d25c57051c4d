import { z } from "zod";
import { SessionStatus } from "@booking/contracts";
import { refuse } from "../http/errors.ts";
import type { RoutePlugin } from "../http/route-plugin.ts";
import { Flag, IdText, ListQueryString, RecordIdParams, SearchText, SqlWhere, containsPattern, oneOrMany, orderBy, parseListQuery, selectPage, sendList, type ListSpec } from "./list-query.ts";

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
  sortable: {
    id: "s.session_id",
    title: "s.title",
    expert_id: "s.expert_id",
    status: "s.status",
    deleted: "s.deleted",
    price_cents: "s.price_cents",
    length_minutes: "s.length_minutes",
    created_at: "s.created_at",
    updated_at: "s.updated_at",
  },
  defaultSort: ["updated_at", "DESC"],
  uniqueKey: "s.session_id",
  filter: SessionFilter,
};

const COLUMNS = `s.session_id, s.expert_id, s.title, s.description, s.price_cents, s.length_minutes, s.prep_questions, s.session_details, s.ideal_for,
  s.status, s.deleted, s.created_at, s.updated_at, s.stream_version`;

type SessionRow = {
  session_id: string;
  expert_id: string;
  title: string;
  description: string;
  price_cents: string;
  length_minutes: number;
  prep_questions: unknown;
  session_details: string;
  ideal_for: unknown;
  status: string;
  deleted: boolean;
  created_at: Date;
  updated_at: Date;
  stream_version: string;
};

const toRecord = (r: SessionRow) => ({
  id: r.session_id,
  session_id: r.session_id,
  expert_id: r.expert_id,
  title: r.title,
  description: r.description,
  price_cents: Number(r.price_cents),
  length_minutes: r.length_minutes,
  prep_questions: r.prep_questions,
  session_details: r.session_details,
  ideal_for: r.ideal_for,
  status: r.status,
  deleted: r.deleted,
  created_at: r.created_at.toISOString(),
  updated_at: r.updated_at.toISOString(),
  stream_version: Number(r.stream_version),
});

function sessionWhere(f: z.output<typeof SessionFilter>): SqlWhere {
  const w = new SqlWhere();
  if (f.id) w.add(`s.session_id = ANY(${w.param(f.id)})`);
  if (f.expert_id) w.add(`s.expert_id = ${w.param(f.expert_id)}`);
  if (f.status) w.add(`s.status = ANY(${w.param(f.status)})`);
  if (f.deleted !== undefined) w.add(`s.deleted = ${w.param(f.deleted)}`);
  if (f.q) w.add(`(s.title ILIKE ${w.param(containsPattern(f.q))} OR s.session_id = ${w.param(f.q)})`);
  return w;
}

export const sessionsAdmin: RoutePlugin = async (app, ctx) => {
  app.get("/sessions", { schema: { querystring: ListQueryString } }, async (request, reply) => {
    const list = parseListQuery(spec, request.query);
    const where = sessionWhere(list.filter);
    const { rows, total } = await selectPage<SessionRow>(ctx.db, { select: COLUMNS, from: "sessions s", where, orderBy: orderBy(spec, list.sort), offset: list.offset, limit: list.limit });
    return sendList(reply, spec.resource, list.offset, rows.map(toRecord), total);
  });

  app.get("/sessions/:id", { schema: { params: RecordIdParams } }, async (request) => {
    const { rows } = await ctx.db.query<SessionRow>(`SELECT ${COLUMNS} FROM sessions s WHERE s.session_id = $1`, [request.params.id]);
    if (!rows[0]) refuse("not_found");
    return toRecord(rows[0]);
  });
};
