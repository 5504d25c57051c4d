import { z } from "zod";
import { Id, type Actor } from "@booking/contracts";
import { expertStream } from "@booking/engine";
import { actorOf } from "../http/auth-guard.ts";
import { refuse, valueOf } from "../http/errors.ts";
import type { RoutePlugin } from "../http/route-plugin.ts";
import type { AppContext } from "../context.ts";
import { Flag, IdText, ListQueryString, RecordIdParams, SearchText, SqlWhere, containsPattern, oneOrMany, orderBy, parseListQuery, selectPage, sendList, type ListSpec } from "./list-query.ts";

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
  sortable: {
    id: "e.expert_id",
    slug: "e.slug",
    first_name: "e.first_name",
    last_name: ["e.last_name", "e.first_name"],
    title: "e.title",
    published: "e.published",
    verified: "e.verified",
    updated_at: "e.updated_at",
  },
  defaultSort: ["updated_at", "DESC"],
  uniqueKey: "e.expert_id",
  filter: ExpertFilter,
};

/** The one change an admin makes to an expert: the vetting decision. */
export const ExpertVettingBody = z.object({ verified: z.boolean() }).strict();

const COLUMNS = "e.expert_id, e.user_id, e.slug, e.first_name, e.last_name, e.title, e.bio, e.tags, e.profile_image, e.published, e.verified, e.vetted_by, e.updated_at, e.stream_version";

type ExpertRow = {
  expert_id: string;
  user_id: string;
  slug: string;
  first_name: string;
  last_name: string;
  title: string;
  bio: string | null;
  tags: string[];
  profile_image: string | null;
  published: boolean;
  verified: boolean;
  vetted_by: string | null;
  updated_at: Date;
  stream_version: string;
};

const toRecord = (r: ExpertRow) => ({
  id: r.expert_id,
  expert_id: r.expert_id,
  user_id: r.user_id,
  slug: r.slug,
  first_name: r.first_name,
  last_name: r.last_name,
  title: r.title,
  bio: r.bio,
  tags: r.tags,
  profile_image: r.profile_image,
  published: r.published,
  verified: r.verified,
  vetted_by: r.vetted_by,
  updated_at: r.updated_at.toISOString(),
  stream_version: Number(r.stream_version),
});

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

async function expertRecord(ctx: AppContext, expertId: string) {
  const { rows } = await ctx.db.query<ExpertRow>(`SELECT ${COLUMNS} FROM experts e WHERE e.expert_id = $1`, [expertId]);
  return rows[0] ? toRecord(rows[0]) : null;
}

export const expertsAdmin: RoutePlugin = async (app, ctx) => {
  app.get("/experts", { schema: { querystring: ListQueryString } }, async (request, reply) => {
    const list = parseListQuery(spec, request.query);
    const where = expertWhere(list.filter);
    const { rows, total } = await selectPage<ExpertRow>(ctx.db, { select: COLUMNS, from: "experts e", where, orderBy: orderBy(spec, list.sort), offset: list.offset, limit: list.limit });
    return sendList(reply, spec.resource, list.offset, rows.map(toRecord), total);
  });

  app.get("/experts/:id", { schema: { params: RecordIdParams } }, async (request) => {
    const record = await expertRecord(ctx, request.params.id);
    if (!record) refuse("not_found");
    return record;
  });

  // ra-data-simple-rest's `update`. Verifying an already verified expert writes nothing and answers the same record.
  app.put("/experts/:id", { schema: { params: z.object({ id: Id }).strict(), body: ExpertVettingBody } }, async (request) => {
    const admin = actorOf(request);
    const actor: Actor = { userId: admin.userId, role: "admin" };
    const expertId = request.params.id;
    const command = request.body.verified ? { type: "VerifyExpert" as const, expertId, actor } : { type: "UnverifyExpert" as const, expertId, actor };
    const result = valueOf(await ctx.experts.handle(expertStream(expertId), command, { actor }));
    await ctx.projected(result);
    const record = await expertRecord(ctx, expertId);
    if (!record) refuse("not_found");
    return record;
  });
};
