import type pg from "pg";
import { z } from "zod";
import { AdminExpertReply, Id, VettingReason, type Actor } from "@booking/contracts";
import { expertStream } from "@booking/engine";
import { expertFromPg, expertListSort, expertSelectList, findExpert, type ExpertRow } from "@booking/projections";
import type { ExpertCommands } from "../main/index.ts";
import type { Projected, RoutePlugin } from "../http/index.ts";
import { actorOf, refuse, valueOf } from "../http/index.ts";
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

// Experts, from the `experts` read model (id = expert_id); vetting (verify / unverify) goes through
// the expert decider with the admin as the actor, like any other command.

const ExpertFilter = z
  .object({
    id: oneOrMany(IdText).optional(),
    user_id: IdText.optional(),
    verified: Flag.optional(),
    published: Flag.optional(),
    /** Matches the name, title or slug (contains). */
    q: SearchText.optional(),
  })
  .strict();

const spec: ListSpec<typeof ExpertFilter> = {
  resource: "experts",
  sortable: expertListSort,
  defaultSort: ["updated_at", "DESC"],
  uniqueKey: "e.expert_id",
  filter: ExpertFilter,
};

/** The one change an admin makes to an expert: the vetting decision, and why (issue 27.20). */
export const ExpertVettingBody = z.object({ verified: z.boolean(), reason: VettingReason }).strict();

/** A row as the console gets it: the read model's own, keyed by `id` for react-admin. */
const toRecord = (row: ExpertRow): AdminExpertReply => ({ id: row.expert_id, ...row });

function expertWhere(f: z.output<typeof ExpertFilter>): SqlWhere {
  const w = new SqlWhere();
  if (f.id) w.add(`e.expert_id = ANY(${w.param(f.id)})`);
  if (f.user_id) w.add(`e.user_id = ${w.param(f.user_id)}`);
  if (f.verified !== undefined) w.add(`e.verified = ${w.param(f.verified)}`);
  if (f.published !== undefined) w.add(`e.published = ${w.param(f.published)}`);
  if (f.q) {
    const pattern = w.param(containsPattern(f.q));
    w.add(`(e.first_name || ' ' || e.last_name ILIKE ${pattern} OR e.title ILIKE ${pattern} OR e.slug ILIKE ${pattern})`);
  }
  return w;
}

/** What the console's expert routes use: the read models, and the expert commands for vetting. */
export type ExpertAdminDeps = { db: pg.Pool; experts: ExpertCommands; projected: Projected };

export const expertsAdmin: RoutePlugin<ExpertAdminDeps> = async (app, { db, experts, projected }) => {
  const expertRecord = async (expertId: string) => {
    const row = await findExpert(db, expertId);
    return row ? toRecord(row) : refuse("not_found");
  };

  app.get("/experts", { schema: { querystring: ListQueryString, response: { 200: z.array(AdminExpertReply) } } }, async (request, reply) =>
    listPage(reply, db, spec, request.query, { select: expertSelectList, from: "experts e", where: expertWhere }, (raw) =>
      toRecord(expertFromPg(raw)),
    ),
  );

  app.get("/experts/:id", { schema: { params: RecordIdParams, response: { 200: AdminExpertReply } } }, async (request) =>
    expertRecord(request.params.id),
  );

  // ra-data-simple-rest's `update`. Verifying an already verified expert writes nothing and answers the same record.
  app.put(
    "/experts/:id",
    { schema: { params: z.object({ id: Id }).strict(), body: ExpertVettingBody, response: { 200: AdminExpertReply } } },
    async (request) => {
      const admin = actorOf(request);
      const actor: Actor = { userId: admin.userId, role: "admin" };
      const expertId = request.params.id;
      const { verified, reason } = request.body;
      const command = { type: verified ? ("VerifyExpert" as const) : ("UnverifyExpert" as const), expertId, actor, reason };
      await projected(valueOf(await experts.handle(expertStream(expertId), command, { actor })));
      return expertRecord(expertId);
    },
  );
};
