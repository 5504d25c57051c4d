import { mkdir, readFile, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import type { FastifyReply, FastifyRequest } from "fastify";
import { z } from "zod";
import { expertImagePath, ExpertIdParams, ExpertProfileBody, ExpertProfileFields, IMAGE_MAX_BYTES, ScheduleBody, SearchQuery, SlugParams, WeeklySchedule, parseInput } from "@booking/contracts";
import { calendarStream, expertStream } from "@booking/engine";
import { actorOf, requireActor } from "../http/auth-guard.ts";
import { Refused, refuse, valueOf } from "../http/errors.ts";
import type { RoutePlugin } from "../http/route-plugin.ts";
import { bookedPeriods } from "../queries/bookings.ts";
import { acceptsGzip, gzipOnce } from "../reply-cache.ts";
import { expertListItem, expertProfile, findExpert, findExpertBySlug, listExperts } from "../queries/experts.ts";
import { sessionView, sessionsOfExpert } from "../queries/sessions.ts";
import { commandActor, requireCurrentTerms, requireExpertAccount, requireExpertProfile, requireOwnExpert } from "./guards.ts";

/** What Fastify sends for a JSON reply it serialises itself. */
const JSON_UTF8 = "application/json; charset=utf-8";

const EMPTY_PROFILE = { id: null, slug: null, first_name: "", last_name: "", title: "", bio: "", tags: [] as string[], profile_image: null, published: false, verified: false };

/** Image types the profile accepts, recognised by their first bytes, never by the file name. */
function sniffImage(bytes: Buffer): { mime: string; ext: string } | null {
  if (bytes.length >= 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return { mime: "image/jpeg", ext: "jpg" };
  if (bytes.length >= 8 && bytes.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))) return { mime: "image/png", ext: "png" };
  if (bytes.length >= 6 && ["GIF87a", "GIF89a"].includes(bytes.subarray(0, 6).toString("latin1"))) return { mime: "image/gif", ext: "gif" };
  if (bytes.length >= 12 && bytes.subarray(0, 4).toString("latin1") === "RIFF" && bytes.subarray(8, 12).toString("latin1") === "WEBP") return { mime: "image/webp", ext: "webp" };
  return null;
}

export const expertRoutes: RoutePlugin = async (app, ctx) => {
  // The listing and search are the same for every caller: served from the serialised reply while the read models stand still.
  const listing = (search: string) => {
    const term = search.trim();
    return ctx.listings.get(`experts?search=${term}`, async () => (await listExperts(ctx.db, term)).map(expertListItem));
  };
  const send = (request: FastifyRequest, reply: FastifyReply, body: Buffer) => {
    reply.type(JSON_UTF8).header("vary", "accept-encoding");
    return acceptsGzip(request.headers["accept-encoding"]) ? reply.header("content-encoding", "gzip").send(gzipOnce(body)) : reply.send(body);
  };
  app.get("/experts", async (request, reply) => send(request, reply, await listing("")));

  app.get("/experts/search", { schema: { querystring: SearchQuery } }, async (request, reply) => send(request, reply, await listing(request.query.search)));

  app.get("/experts/me", { onRequest: requireExpertAccount }, async (request) => {
    const actor = actorOf(request);
    const expert = await findExpert(ctx.db, actor.userId);
    return expert ? expertProfile(expert) : EMPTY_PROFILE;
  });

  app.patch("/experts/me", { onRequest: requireExpertAccount, schema: { body: ExpertProfileBody } }, async (request) => {
    const actor = actorOf(request);
    const b = request.body;
    const profile = valueOf(parseInput(ExpertProfileFields, { firstName: b.first_name, lastName: b.last_name, title: b.title, bio: b.bio ?? null, tags: (b.tags ?? []).map((t) => t.trim()).filter(Boolean), profileImage: b.profile_image ?? null }));
    const expertId = actor.userId;
    const result = valueOf(
      await ctx.experts.handle(expertStream(expertId), { type: "SaveExpertProfile", expertId, actor: commandActor(actor), userId: actor.userId, profile, published: b.published }, { actor: commandActor(actor) }),
    );
    await ctx.projected(result);
    const saved = await findExpert(ctx.db, expertId);
    if (saved) return expertProfile(saved);
    // The read model is behind even after waiting: answer with what was written.
    const written = result.events[0]!.data as { slug: string; published: boolean };
    return { id: expertId, user_id: actor.userId, slug: written.slug, first_name: profile.firstName, last_name: profile.lastName, title: profile.title, bio: profile.bio, tags: profile.tags, profile_image: profile.profileImage, verified: false, published: written.published };
  });

  app.get("/experts/:slug", { schema: { params: SlugParams } }, async (request) => {
    const expert = await findExpertBySlug(ctx.db, request.params.slug);
    const viewer = request.actor;
    // Unpublished profiles are visible to their expert (preview) and admins only.
    const mayPreview = viewer && (viewer.role === "admin" || viewer.userId === expert?.user_id);
    if (!expert || (!expert.published && !mayPreview)) refuse("profile_not_found");
    const sessions = await sessionsOfExpert(ctx.db, expert.expert_id, false);
    return { ...expertProfile(expert), sessions: sessions.map(sessionView), reviews: [], prev_clients: [] };
  });

  app.get("/experts/:expertId/sessions", { schema: { params: ExpertIdParams } }, async (request) => {
    const viewer = request.actor;
    const own = !!viewer && (viewer.role === "admin" || viewer.userId === request.params.expertId);
    return (await sessionsOfExpert(ctx.db, request.params.expertId, own)).map(sessionView);
  });

  app.get("/experts/:expertId/schedule", { onRequest: requireActor(), schema: { params: ExpertIdParams } }, async (request) => {
    const { state } = await ctx.calendar.load(calendarStream(request.params.expertId));
    return {
      timezone: state.schedule?.timezone ?? null,
      slots: state.schedule?.slots ?? [],
      booked: await bookedPeriods(ctx.db, request.params.expertId, ctx.clock()),
    };
  });

  app.post("/experts/:expertId/schedule", { onRequest: requireActor("expert"), schema: { params: ExpertIdParams, body: ScheduleBody } }, async (request) => {
    const actor = actorOf(request);
    const expertId = request.params.expertId;
    requireOwnExpert(actor, expertId);
    await requireCurrentTerms(ctx, actor);
    await requireExpertProfile(ctx, expertId);
    const schedule = valueOf(parseInput(WeeklySchedule, request.body));
    const result = valueOf(await ctx.calendar.handle(calendarStream(expertId), { type: "SetSchedule", expertId, actor: commandActor(actor), schedule }, { actor: commandActor(actor) }));
    await ctx.projected(result);
    return { timezone: schedule.timezone, slots: schedule.slots };
  });

  // Profile images: the type is sniffed from the content; stored under MEDIA_DIR, served with a version query.
  app.post("/experts/me/image", { onRequest: requireExpertAccount }, async (request) => {
    const actor = actorOf(request);
    if (!request.isMultipart()) refuse("unsupported_media_type");
    let file: Awaited<ReturnType<typeof request.file>>;
    let bytes: Buffer;
    try {
      file = await request.file();
      if (!file) refuse("image_invalid_type");
      bytes = await file.toBuffer();
    } catch (e) {
      // Size limits keep their own answers; a body that is not valid multipart is the client's error.
      if (e instanceof Refused || (typeof (e as { code?: unknown }).code === "string" && (e as { code: string }).code.startsWith("FST_"))) throw e;
      refuse("invalid_request");
    }
    if (file.file.truncated || bytes.length > IMAGE_MAX_BYTES) refuse("image_too_large");
    const kind = sniffImage(bytes);
    if (!kind) refuse("image_invalid_type");
    const dir = join(ctx.mediaDir, "experts", actor.userId);
    await mkdir(dir, { recursive: true });
    await writeFile(join(dir, "profile"), bytes);
    await writeFile(join(dir, "profile.type"), kind.mime);
    return { url: `${expertImagePath(actor.userId)}?v=${Date.parse(ctx.clock())}` };
  });

  app.delete("/experts/me/image", { onRequest: requireExpertAccount }, async (request, reply) => {
    const dir = join(ctx.mediaDir, "experts", actorOf(request).userId);
    await rm(join(dir, "profile"), { force: true });
    await rm(join(dir, "profile.type"), { force: true });
    return reply.status(204).send();
  });

  app.get("/media/experts/:expertId/profile", { schema: { params: ExpertIdParams, querystring: z.object({ v: z.string().max(20).optional() }) } }, async (request, reply) => {
    const dir = join(ctx.mediaDir, "experts", request.params.expertId);
    const [bytes, mime] = await Promise.all([readFile(join(dir, "profile")).catch(() => null), readFile(join(dir, "profile.type"), "utf8").catch(() => null)]);
    if (!bytes || !mime) refuse("not_found");
    return reply.header("content-type", mime).header("cache-control", "public, max-age=31536000, immutable").header("x-content-type-options", "nosniff").send(bytes);
  });
};
