import { mkdir, readFile, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import type { FastifyReply, FastifyRequest } from "fastify";
import type pg from "pg";
import { z } from "zod";
import {
  expertImagePath,
  ExpertDetailReply,
  ExpertIdParams,
  ExpertImageReply,
  ExpertListReply,
  ExpertProfileBody,
  ExpertProfileFields,
  ExpertProfileReply,
  IMAGE_MAX_BYTES,
  NoContent,
  OwnExpertProfileReply,
  ScheduleBody,
  ScheduleReply,
  ScheduleSetReply,
  ExpertListQuery,
  ExpertListingQuery,
  LISTING_FIELDS,
  LISTING_PAGE_DEFAULT,
  SessionListReply,
  SlugParams,
  WeeklySchedule,
  parseInput,
} from "@booking/contracts";
import { calendarStream, expertStream, localDateTime } from "@booking/engine";
import {
  bookedPeriods,
  evolveExpert,
  expertProfileReply,
  findExpert,
  findExpertBySlug,
  findSchedule,
  scheduleReply,
  sessionReply,
  sessionsOfExpert,
  toProjected,
  type ExpertRow,
} from "@booking/projections";
import type { CalendarCommands, ExpertCommands, TermsCommands } from "../main/index.ts";
import type { Projected, RoutePlugin } from "../http/index.ts";
import { expertListing } from "./listing.ts";
import { listingPage } from "./listing-pages.ts";
import { apiBaseOf, mayViewProfile, reviewPageRoutes, reviewsPage } from "./review-pages.ts";
import { publishedPhoto, PROFILE_PHOTO_TYPE } from "./profile-photo.ts";
import {
  actorOf,
  requireActor,
  Refused,
  refuse,
  valueOf,
  acceptsGzip,
  gzipOnce,
  nextPageLink,
  type ReplyCache,
  commandActor,
  requireCurrentTerms,
  requireExpertAccount,
  requireExpertProfile,
  requireOwnExpert,
} from "../http/index.ts";

/**
 * What the expert routes use: the read models, the expert and calendar commands (and terms, for the terms rule),
 * the listings cache, the clock and where images are kept.
 */
export type ExpertRouteDeps = {
  db: pg.Pool;
  experts: ExpertCommands;
  calendar: CalendarCommands;
  terms: TermsCommands;
  projected: Projected;
  listings: ReplyCache;
  clock: () => string;
  mediaDir: string;
};

/** What Fastify sends for a JSON reply it serialises itself. */
const JSON_UTF8 = "application/json; charset=utf-8";

/** The spec's empty default for an expert who has not saved a profile yet. */
const EMPTY_PROFILE: OwnExpertProfileReply = {
  id: null,
  slug: null,
  first_name: "",
  last_name: "",
  title: "",
  bio: "",
  tags: [],
  profile_image: null,
  published: false,
  verified: false,
};

/**
 * Image types the profile accepts (JPEG, PNG, GIF, WebP), recognised by their first bytes, never by the file name: only these
 * reach the decoder, whatever else it could read (SVG, PDF, TIFF).
 */
function isAcceptedImage(bytes: Buffer): boolean {
  const starts = (text: string, at = 0) => bytes.subarray(at, at + text.length).toString("latin1") === text;
  return (
    (bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) ||
    starts("\x89PNG\r\n\x1a\n") ||
    starts("GIF87a") ||
    starts("GIF89a") ||
    (starts("RIFF") && starts("WEBP", 8))
  );
}

export const expertRoutes: RoutePlugin<ExpertRouteDeps> = async (app, deps) => {
  const { db, experts, calendar, projected, listings, clock, mediaDir } = deps;
  // The listing and search are the same for every caller: served from the serialised reply while
  // the read models stand still. A cached body skips Fastify's serialiser, so it is checked against
  // its schema here, once per computation: a stray field fails the reply like any other route's.
  const listing = (query: ExpertListQuery) => {
    const q = { ...query, search: query.search.trim() };
    // Keyed by every field that says what the listing holds, in the schema's order, so two spellings of one query share an
    // entry; the page asked (issue 34.5) is cut from it, so every page of one query reads one ranking.
    const key = `experts?${LISTING_FIELDS.map((k) => `${k}=${q[k] ?? ""}`).join("&")}`;
    return listings.get(key, async () => ExpertListReply.parse(await expertListing(db, q, clock())));
  };
  const send = (request: FastifyRequest, reply: FastifyReply, body: Buffer) => {
    reply.type(JSON_UTF8).header("vary", "accept-encoding");
    return acceptsGzip(request.headers["accept-encoding"])
      ? reply.header("content-encoding", "gzip").send(gzipOnce(body))
      : reply.send(body);
  };
  /** The page asked of the listing, with a `Link: <…>; rel="next"` header naming the next page (the same query) while experts remain. */
  const sendPage = async (request: FastifyRequest & { query: ExpertListQuery }, reply: FastifyReply) => {
    const page = listingPage(await listing(request.query), request.query);
    if (page.next) reply.header("link", nextPageLink(request.url, page.next, request.query.limit ?? LISTING_PAGE_DEFAULT));
    return send(request, reply, page.body);
  };
  const listed = {
    response: { 200: ExpertListReply.describe('One page of the listing, in its order; a `Link: <…>; rel="next"` header names the next.') },
  };
  // The spec's two calls: the listing, and its search; both take the sort and the filters.
  app.get("/experts", { schema: { querystring: ExpertListingQuery, ...listed } }, async (request, reply) => sendPage(request, reply));
  app.get("/experts/search", { schema: { querystring: ExpertListQuery, ...listed } }, async (request, reply) => sendPage(request, reply));

  app.get("/experts/me", { onRequest: requireExpertAccount, schema: { response: { 200: OwnExpertProfileReply } } }, async (request) => {
    const expert = await findExpert(db, actorOf(request).userId);
    return expert ? expertProfileReply(expert) : EMPTY_PROFILE;
  });

  app.patch(
    "/experts/me",
    { onRequest: requireExpertAccount, schema: { body: ExpertProfileBody, response: { 200: ExpertProfileReply } } },
    async (request) => {
      const actor = actorOf(request);
      const b = request.body;
      const profile = valueOf(
        parseInput(ExpertProfileFields, {
          firstName: b.first_name,
          lastName: b.last_name,
          title: b.title,
          bio: b.bio ?? null,
          tags: (b.tags ?? []).map((t) => t.trim()).filter(Boolean),
          profileImage: b.profile_image ?? null,
        }),
      );
      const expertId = actor.userId;
      const result = valueOf(
        await experts.handle(
          expertStream(expertId),
          { type: "SaveExpertProfile", expertId, actor: commandActor(actor), userId: actor.userId, profile, published: b.published },
          { actor: commandActor(actor) },
        ),
      );
      await projected(result);
      const saved = await findExpert(db, expertId);
      if (saved) return expertProfileReply(saved);
      // The read model is still behind after waiting: answer with the row its own rule makes of what was written.
      const written = toProjected(result.events).reduce<ExpertRow | undefined>(evolveExpert, undefined);
      return expertProfileReply(written!);
    },
  );

  // The profile carries the first page of its reviews; a Link header names the next while older ones remain (issue 34.5).
  const profileReply = ExpertDetailReply.describe(
    'The profile with the newest reviews; while older ones remain, a `Link: <…>; rel="next"` header names GET /experts/{expertId}/reviews\' next page.',
  );
  app.get("/experts/:slug", { schema: { params: SlugParams, response: { 200: profileReply } } }, async (request, reply) => {
    const expert = await findExpertBySlug(db, request.params.slug);
    // Unpublished profiles, and those our team has not approved (or suspended), are visible to their expert (preview) and admins only.
    if (!mayViewProfile(expert, request.actor)) refuse("profile_not_found");
    const [sessions, reviews] = await Promise.all([
      sessionsOfExpert(db, expert.expert_id, false),
      reviewsPage(db, expert.expert_id, { base: apiBaseOf(request.url) }),
    ]);
    if (reviews.link) reply.header("link", reviews.link);
    return { ...expertProfileReply(expert), sessions: sessions.map(sessionReply), reviews: reviews.reviews, prev_clients: [] };
  });
  await reviewPageRoutes(app, { db });

  app.get("/experts/:expertId/sessions", { schema: { params: ExpertIdParams, response: { 200: SessionListReply } } }, async (request) => {
    const viewer = request.actor;
    const own = !!viewer && (viewer.role === "admin" || viewer.userId === request.params.expertId);
    return (await sessionsOfExpert(db, request.params.expertId, own)).map(sessionReply);
  });

  app.get(
    "/experts/:expertId/schedule",
    { onRequest: requireActor(), schema: { params: ExpertIdParams, response: { 200: ScheduleReply } } },
    async (request) => {
      const { expertId } = request.params;
      const viewer = actorOf(request);
      const now = clock();
      const [schedule, booked] = await Promise.all([findSchedule(db, expertId), bookedPeriods(db, expertId, now)]);
      // Time off, extra hours and booking rules are the expert's own: shown to them and to admins.
      const own = viewer.role === "admin" || viewer.userId === expertId;
      return scheduleReply(schedule, booked, own ? { nowLocal: localDateTime(now, schedule?.timezone ?? "UTC") } : undefined);
    },
  );

  app.post(
    "/experts/:expertId/schedule",
    { onRequest: requireActor("expert"), schema: { params: ExpertIdParams, body: ScheduleBody, response: { 200: ScheduleSetReply } } },
    async (request) => {
      const actor = actorOf(request);
      const expertId = request.params.expertId;
      requireOwnExpert(actor, expertId);
      await requireCurrentTerms(deps, actor);
      await requireExpertProfile(deps, expertId);
      const schedule = valueOf(parseInput(WeeklySchedule, request.body));
      const result = valueOf(
        await calendar.handle(
          calendarStream(expertId),
          { type: "SetSchedule", expertId, actor: commandActor(actor), schedule },
          { actor: commandActor(actor) },
        ),
      );
      await projected(result);
      return { timezone: schedule.timezone, slots: schedule.slots };
    },
  );

  // Profile images: the type is sniffed from the content, the photo re-encoded; stored under MEDIA_DIR, served with a version query.
  app.post("/experts/me/image", { onRequest: requireExpertAccount, schema: { response: { 200: ExpertImageReply } } }, async (request) => {
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
      if (e instanceof Refused || (typeof (e as { code?: unknown }).code === "string" && (e as { code: string }).code.startsWith("FST_")))
        throw e;
      refuse("invalid_request");
    }
    if (file.file.truncated || bytes.length > IMAGE_MAX_BYTES) refuse("image_too_large");
    if (!isAcceptedImage(bytes)) refuse("image_invalid_type");
    // Never the bytes as sent: they can say where the photo was taken (see profile-photo.ts).
    const photo = await publishedPhoto(bytes);
    if (photo.kind === "too_many_pixels") refuse("image_too_large");
    if (photo.kind === "not_an_image") refuse("image_invalid_type");
    const dir = join(mediaDir, "experts", actor.userId);
    await mkdir(dir, { recursive: true });
    await writeFile(join(dir, "profile"), photo.bytes);
    await writeFile(join(dir, "profile.type"), PROFILE_PHOTO_TYPE);
    return { url: `${expertImagePath(actor.userId)}?v=${Date.parse(clock())}` };
  });

  app.delete("/experts/me/image", { onRequest: requireExpertAccount, schema: { response: { 204: NoContent } } }, async (request, reply) => {
    const dir = join(mediaDir, "experts", actorOf(request).userId);
    await rm(join(dir, "profile"), { force: true });
    await rm(join(dir, "profile.type"), { force: true });
    return reply.status(204).send(null);
  });

  app.get(
    "/media/experts/:expertId/profile",
    { schema: { params: ExpertIdParams, querystring: z.object({ v: z.string().max(20).optional() }) } },
    async (request, reply) => {
      const dir = join(mediaDir, "experts", request.params.expertId);
      const [bytes, mime] = await Promise.all([
        readFile(join(dir, "profile")).catch(() => null),
        readFile(join(dir, "profile.type"), "utf8").catch(() => null),
      ]);
      if (!bytes || !mime) refuse("not_found");
      return reply
        .header("content-type", mime)
        .header("cache-control", "public, max-age=31536000, immutable")
        .header("x-content-type-options", "nosniff")
        .send(bytes);
    },
  );
};
