import { randomUUID } from "node:crypto";
import { DateTime } from "luxon";
import { AvailabilityQuery, IdParams, SessionBody, SessionDefinition, SessionUpdateBody, parseInput, type SessionCommand } from "@booking/contracts";
import { bookableStarts, busyPeriods, calendarStream, sessionStream } from "@booking/engine";
import type { z } from "zod";
import type { AppContext } from "../context.ts";
import { actorOf, requireActor } from "../http/auth-guard.ts";
import { refuse, valueOf } from "../http/errors.ts";
import type { RoutePlugin } from "../http/route-plugin.ts";
import { findSession, sessionView } from "../queries/sessions.ts";
import { commandActor, requireCurrentTerms, requireExpertProfile } from "./guards.ts";

/** The spec's session form to the engine's definition: dollars to cents, 1-3 questions, "who it is for" split on commas. */
function definitionFrom(b: z.infer<typeof SessionBody>) {
  const idealFor = Array.isArray(b.ideal_for) ? b.ideal_for : (b.ideal_for ?? "").split(",");
  return valueOf(
    parseInput(SessionDefinition, {
      title: b.title,
      description: b.description ?? "",
      priceCents: Math.round(b.price * 100),
      lengthMinutes: b.length_minutes,
      prepQuestions: [b.prep_question_1, b.prep_question_2, b.prep_question_3].filter((q): q is string => !!q && q.trim() !== ""),
      sessionDetails: b.session_details ?? "",
      idealFor: idealFor.map((s) => s.trim()).filter(Boolean),
    }),
  );
}

async function viewOf(ctx: AppContext, sessionId: string) {
  const row = await findSession(ctx.db, sessionId);
  return row ? sessionView(row) : refuse("session_not_found");
}

/** After a write: the read model's view, or (if it is still behind after waiting) the session as the stream has it. */
async function writtenView(ctx: AppContext, sessionId: string) {
  const row = await findSession(ctx.db, sessionId);
  if (row) return sessionView(row);
  const { state } = await ctx.sessions.load(sessionStream(sessionId));
  if (state.kind !== "saved") refuse("session_not_found");
  const d = state.definition;
  return sessionView({
    session_id: sessionId, expert_id: state.expertId, title: d.title, description: d.description, price_cents: String(d.priceCents), length_minutes: d.lengthMinutes,
    prep_questions: d.prepQuestions, session_details: d.sessionDetails, ideal_for: d.idealFor, status: state.status, deleted: false, first_name: null, last_name: null,
  });
}

export const sessionRoutes: RoutePlugin = async (app, ctx) => {
  app.post("/sessions", { onRequest: requireActor("expert"), schema: { body: SessionBody } }, async (request, reply) => {
    const actor = actorOf(request);
    // An admin creates a session for an expert they name, never one of their own.
    if (actor.role === "admin" && !request.body.expert_id) refuse("admin_not_expert");
    const expertId = request.body.expert_id ?? actor.userId;
    if (actor.role !== "admin" && expertId !== actor.userId) refuse("not_session_owner");
    await requireCurrentTerms(ctx, actor);
    await requireExpertProfile(ctx, expertId);
    const sessionId = randomUUID();
    const command: SessionCommand = { type: "CreateSession", sessionId, expertId, actor: commandActor(actor), definition: definitionFrom(request.body), status: request.body.status ?? "draft" };
    const result = valueOf(await ctx.sessions.handle(sessionStream(sessionId), command, { actor: commandActor(actor), idempotencyKey: idempotencyKeyOf(request.headers) }));
    await ctx.projected(result);
    return reply.status(201).send({ session: await writtenView(ctx, sessionId) });
  });

  app.put("/sessions/:id", { onRequest: requireActor("expert"), schema: { params: IdParams, body: SessionUpdateBody } }, async (request) => {
    const actor = actorOf(request);
    const sessionId = request.params.id;
    const existing = await findSession(ctx.db, sessionId);
    const expertId = existing?.expert_id ?? actor.userId;
    const meta = { actor: commandActor(actor) };
    const base = { sessionId, expertId: actor.role === "admin" ? expertId : actor.userId, actor: commandActor(actor) };
    const body = request.body;
    const commands: SessionCommand[] = [];
    if ("title" in body) commands.push({ type: "UpdateSession", ...base, definition: definitionFrom(body) });
    if (body.status) commands.push({ type: body.status === "published" ? "PublishSession" : "UnpublishSession", ...base });
    for (const command of commands) await ctx.projected(valueOf(await ctx.sessions.handle(sessionStream(sessionId), command, meta)));
    return { session: await writtenView(ctx, sessionId) };
  });

  app.get("/sessions/:id", { schema: { params: IdParams } }, async (request) => {
    const session = await viewOf(ctx, request.params.id);
    const viewer = request.actor;
    const own = !!viewer && (viewer.role === "admin" || viewer.userId === session.expert_id);
    if (session.status !== "published" && !own) refuse("session_not_found");
    return session;
  });

  app.delete("/sessions/:id", { onRequest: requireActor("expert"), schema: { params: IdParams } }, async (request) => {
    const actor = actorOf(request);
    const sessionId = request.params.id;
    const existing = await findSession(ctx.db, sessionId);
    const expertId = actor.role === "admin" ? (existing?.expert_id ?? "") : actor.userId;
    const result = valueOf(await ctx.sessions.handle(sessionStream(sessionId), { type: "DeleteSession", sessionId, expertId, actor: commandActor(actor) }, { actor: commandActor(actor) }));
    await ctx.projected(result);
    return { session: { id: sessionId } };
  });

  // The bookable start times, computed by the same function over the same calendar state as the booking decision.
  app.get("/sessions/:id/availability", { schema: { params: IdParams, querystring: AvailabilityQuery } }, async (request) => {
    const session = await findSession(ctx.db, request.params.id);
    if (!session || session.status !== "published") refuse("session_not_found");
    const { state } = await ctx.calendar.load(calendarStream(session.expert_id));
    const now = ctx.clock();
    if (!state.schedule) return { timezone: null, times: [] };
    const zone = state.schedule.timezone;
    const from = request.query.from ? DateTime.fromISO(request.query.from, { zone }).startOf("day").toUTC().toISO()! : undefined;
    const to = request.query.to ? DateTime.fromISO(request.query.to, { zone }).endOf("day").toUTC().toISO()! : undefined;
    const times = bookableStarts({ schedule: state.schedule, lengthMinutes: session.length_minutes, busy: busyPeriods(state, now), now, ...(from && { from }), ...(to && { to }) });
    return { timezone: zone, length_minutes: session.length_minutes, times };
  });
};

/** An `Idempotency-Key` header makes a retried create return the first result. */
export function idempotencyKeyOf(headers: Record<string, string | string[] | undefined>): string | undefined {
  const key = headers["idempotency-key"];
  return typeof key === "string" && /^[\w.:-]{1,200}$/.test(key) ? key : undefined;
}
