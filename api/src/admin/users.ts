import { z } from "zod";
import { CURRENT_TERMS_VERSION, UserRole } from "@booking/contracts";
import { refuse } from "../http/errors.ts";
import type { RoutePlugin } from "../http/route-plugin.ts";
import { Flag, IdText, ListQueryString, RecordIdParams, SearchText, SqlWhere, containsPattern, oneOrMany, orderBy, parseListQuery, selectPage, sendList, type ListSpec } from "./list-query.ts";

// Users, from the `users` read model (id = user_id), with their terms status (have they accepted
// the current version, and when) and how many bookings they have as creator and as expert.

const UserFilter = z
  .object({
    id: oneOrMany(IdText).optional(),
    role: oneOrMany(UserRole).optional(),
    accepted_current_terms: Flag.optional(),
    /** Matches the email (contains). */
    q: SearchText.optional(),
  })
  .strict();

const spec: ListSpec<typeof UserFilter> = {
  resource: "users",
  sortable: { id: "u.user_id", email: "lower(u.email)", role: "u.role", first_name: "u.first_name", last_name: "u.last_name", registered_at: "u.registered_at", current_terms_accepted_at: "ct.accepted_at" },
  defaultSort: ["registered_at", "DESC"],
  uniqueKey: "u.user_id",
  filter: UserFilter,
};

// $1 is always the current terms version (bound first by `userWhere`); at most one acceptance
// per user and version, so the join never repeats a user.
const FROM = "users u LEFT JOIN terms_acceptances ct ON ct.user_id = u.user_id AND ct.version_id = $1";
const COLUMNS = `u.user_id, u.email, u.role, u.first_name, u.last_name, u.registered_at,
  ct.accepted_at AS current_terms_accepted_at,
  (SELECT max(t.version_id) FROM terms_acceptances t WHERE t.user_id = u.user_id) AS latest_terms_version,
  (SELECT count(*) FROM bookings b WHERE b.creator_id = u.user_id) AS bookings_as_creator,
  (SELECT count(*) FROM bookings b WHERE b.expert_user_id = u.user_id) AS bookings_as_expert,
  (SELECT e.expert_id FROM experts e WHERE e.user_id = u.user_id ORDER BY e.expert_id LIMIT 1) AS expert_id`;

type UserRow = {
  user_id: string;
  email: string;
  role: string;
  first_name: string | null;
  last_name: string | null;
  registered_at: Date;
  current_terms_accepted_at: Date | null;
  latest_terms_version: string | null;
  bookings_as_creator: string;
  bookings_as_expert: string;
  expert_id: string | null;
};

const toRecord = (r: UserRow) => ({
  id: r.user_id,
  user_id: r.user_id,
  email: r.email,
  role: r.role,
  first_name: r.first_name,
  last_name: r.last_name,
  registered_at: r.registered_at.toISOString(),
  expert_id: r.expert_id,
  current_terms_version: CURRENT_TERMS_VERSION,
  accepted_current_terms: r.current_terms_accepted_at !== null,
  current_terms_accepted_at: r.current_terms_accepted_at?.toISOString() ?? null,
  latest_terms_version: r.latest_terms_version,
  bookings_as_creator: Number(r.bookings_as_creator),
  bookings_as_expert: Number(r.bookings_as_expert),
});

function userWhere(f: z.output<typeof UserFilter>): SqlWhere {
  const w = new SqlWhere();
  w.param(CURRENT_TERMS_VERSION); // $1, used by FROM
  if (f.id) w.add(`u.user_id = ANY(${w.param(f.id)})`);
  if (f.role) w.add(`u.role = ANY(${w.param(f.role)})`);
  if (f.accepted_current_terms !== undefined) w.add(f.accepted_current_terms ? "ct.user_id IS NOT NULL" : "ct.user_id IS NULL");
  if (f.q) w.add(`u.email ILIKE ${w.param(containsPattern(f.q))}`);
  return w;
}

export const usersAdmin: RoutePlugin = async (app, ctx) => {
  app.get("/users", { schema: { querystring: ListQueryString } }, async (request, reply) => {
    const list = parseListQuery(spec, request.query);
    const where = userWhere(list.filter);
    const { rows, total } = await selectPage<UserRow>(ctx.db, { select: COLUMNS, from: FROM, where, orderBy: orderBy(spec, list.sort), offset: list.offset, limit: list.limit });
    return sendList(reply, spec.resource, list.offset, rows.map(toRecord), total);
  });

  app.get("/users/:id", { schema: { params: RecordIdParams } }, async (request) => {
    const { rows } = await ctx.db.query<UserRow>(`SELECT ${COLUMNS} FROM ${FROM} WHERE u.user_id = $2`, [CURRENT_TERMS_VERSION, request.params.id]);
    if (!rows[0]) refuse("not_found");
    return toRecord(rows[0]);
  });
};
