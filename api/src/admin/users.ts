import type pg from "pg";
import { z } from "zod";
import { AdminUserReply, CURRENT_TERMS_VERSION, UserRole } from "@booking/contracts";
import { adminUserReply, findAdminUser, userListFrom, userListSelect, userListSort } from "@booking/projections";
import { refuse } from "../http/index.ts";
import type { RoutePlugin } from "../http/index.ts";
import {
  Flag,
  IdText,
  ListQueryString,
  RecordIdParams,
  SearchText,
  SqlWhere,
  containsPattern,
  oneOrMany,
  orderBy,
  parseListQuery,
  selectPage,
  sendList,
  type ListSpec,
} from "./list-query.ts";

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
  sortable: userListSort,
  defaultSort: ["registered_at", "DESC"],
  uniqueKey: "u.user_id",
  filter: UserFilter,
};

function userWhere(f: z.output<typeof UserFilter>): SqlWhere {
  const w = new SqlWhere();
  w.param(CURRENT_TERMS_VERSION); // $1, used by userListFrom
  if (f.id) w.add(`u.user_id = ANY(${w.param(f.id)})`);
  if (f.role) w.add(`u.role = ANY(${w.param(f.role)})`);
  if (f.accepted_current_terms !== undefined) w.add(f.accepted_current_terms ? "ct.user_id IS NOT NULL" : "ct.user_id IS NULL");
  if (f.q) w.add(`u.email ILIKE ${w.param(containsPattern(f.q))}`);
  return w;
}

export type UsersAdminDeps = { db: pg.Pool };

export const usersAdmin: RoutePlugin<UsersAdminDeps> = async (app, { db }) => {
  app.get("/users", { schema: { querystring: ListQueryString, response: { 200: z.array(AdminUserReply) } } }, async (request, reply) => {
    const list = parseListQuery(spec, request.query);
    const where = userWhere(list.filter);
    const { rows, total } = await selectPage(db, {
      select: userListSelect,
      from: userListFrom,
      where,
      orderBy: orderBy(spec, list.sort),
      offset: list.offset,
      limit: list.limit,
    });
    return [...sendList(reply, spec.resource, list.offset, rows.map(adminUserReply), total)];
  });

  app.get("/users/:id", { schema: { params: RecordIdParams, response: { 200: AdminUserReply } } }, async (request) => {
    const user = await findAdminUser(db, request.params.id);
    if (!user) refuse("not_found");
    return user;
  });
};
