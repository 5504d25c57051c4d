import { randomUUID } from "node:crypto";
import type { FastifyReply } from "fastify";
import { DateTime } from "luxon";
import type pg from "pg";
import {
  AvailabilityQuery,
  AvailabilityReply,
  IdParams,
  SessionBody,
  SessionDefinition,
  SessionDeletedReply,
  SessionReply,
  SessionUpdateBody,
  SessionWrittenReply,
  DEFAULT_CURRENCY,
  parseInput,
  type Currency,
  type EventLog,
  type SessionCommand,
} from "@booking/contracts";
import { busyPeriods, calendarStream, expertHours, expertStream, isBookable, sessionStream } from "@booking/engine";
import { findSession, sessionReply, sessionReplyOfDefinition } from "@booking/projections";
import type { z } from "zod";
import { AvailabilityAnswers, StreamStates } from "../availability/index.ts";
import type { CalendarCommands, ExpertCommands, SessionCommands, TermsCommands } from "../main/index.ts";
import type { Projected, RoutePlugin } from "../http/index.ts";
import {
  actorOf,
  requireActor,
  refuse,
  valueOf,
  commandActor,
  requireCurrentTerms,
  requireExpertProfile,
  idempotencyKeyOf,
} from "../http/index.ts";

/** What the session routes use: the read models, the session commands (experts and terms for their rules), the calendar for availability, and the clock. */
export type SessionRouteDeps = {
  db: pg.Pool;
  sessions: SessionCommands;
  experts: ExpertCommands;
  terms: TermsCommands;
  calendar: CalendarCommands;
  projected: Projected;
  clock: () => string;
  /** Announces appends: availability reads the session and calendar streams again after one. */
  log: Pick<EventLog, "watchAppends">;
};

/**
 * The spec's session form to the engine's definition: dollars to cents, 1-3 questions, "who it is for" split on commas;
 * instant booking as sent, else as it was (`instantBefore`: an update from a form that does not show it keeps it).
 */
function definitionFrom(
  b: z.infer<typeof SessionBody>,
  instantBefore = false,
  currencyBefore: Currency = DEFAULT_CURRENCY,
  cutOffsBefore: { fullRefundHours?: number; rescheduleHours?: number } = {},
) {
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
      instantBooking: b.instant_booking ?? instantBefore,
      currency: b.currency ?? currencyBefore,
      // Cut-offs (issue 31.4) as sent, else as they were (a form that does not show them keeps them).
      fullRefundHours: b.full_refund_hours ?? cutOffsBefore.fullRefundHours,
      rescheduleHours: b.reschedule_hours ?? cutOffsBefore.rescheduleHours,
    }),
  );
}

/** After a write: the read model's reply, or (if it is still behind after waiting) the session as its stream has it. */
async function writtenReply({ db, sessions }: Pick<SessionRouteDeps, "db" | "sessions">, sessionId: string) {
  const row = await findSession(db, sessionId);
  if (row) return sessionReply(row);
  const { state } = await sessions.load(sessionStream(sessionId));
  if (state.kind !== "saved") refuse("session_not_found");
  return sessionReplyOfDefinition(sessionId, state.expertId, state.status, state.definition);
}

export const sessionRoutes: RoutePlugin<SessionRouteDeps> = async (app, deps) => {
  const { db, sessions, calendar, experts, projected, clock } = deps;
  // Per app: what one process has computed (another process's writes move the stream's version, which the answer is checked against).
  const answers = new AvailabilityAnswers();
  app.post(
    "/sessions",
    { onRequest: requireActor("expert"), schema: { body: SessionBody, response: { 201: SessionWrittenReply } } },
    async (request, reply) => {
      const actor = actorOf(request);
      // An admin creates a session for an expert they name, never one of their own.
      if (actor.role === "admin" && !request.body.expert_id) refuse("admin_not_expert");
      const expertId = request.body.expert_id ?? actor.userId;
      if (actor.role !== "admin" && expertId !== actor.userId) refuse("not_session_owner");
      await requireCurrentTerms(deps, actor);
      await requireExpertProfile(deps, expertId);
      const sessionId = randomUUID();
      const command: SessionCommand = {
        type: "CreateSession",
        sessionId,
        expertId,
        actor: commandActor(actor),
        definition: definitionFrom(request.body),
        status: request.body.status ?? "draft",
      };
      const result = valueOf(
        await sessions.handle(sessionStream(sessionId), command, {
          actor: commandActor(actor),
          idempotencyKey: idempotencyKeyOf(request.headers),
        }),
      );
      await projected(result);
      return reply.status(201).send({ session: await writtenReply(deps, sessionId) });
    },
  );

  app.put(
    "/sessions/:id",
    { onRequest: requireActor("expert"), schema: { params: IdParams, body: SessionUpdateBody, response: { 200: SessionWrittenReply } } },
    async (request) => {
      const actor = actorOf(request);
      const sessionId = request.params.id;
      const existing = await findSession(db, sessionId);
      const expertId = existing?.expert_id ?? actor.userId;
      const meta = { actor: commandActor(actor) };
      const base = { sessionId, expertId: actor.role === "admin" ? expertId : actor.userId, actor: commandActor(actor) };
      const body = request.body;
      const commands: SessionCommand[] = [];
      if ("title" in body)
        commands.push({
          type: "UpdateSession",
          ...base,
          definition: definitionFrom(body, existing?.instant_booking, existing?.currency as Currency | undefined, {
            fullRefundHours: existing?.full_refund_hours,
            rescheduleHours: existing?.reschedule_hours,
          }),
        });
      if (body.status) commands.push({ type: body.status === "published" ? "PublishSession" : "UnpublishSession", ...base });
      for (const command of commands) await projected(valueOf(await sessions.handle(sessionStream(sessionId), command, meta)));
      return { session: await writtenReply(deps, sessionId) };
    },
  );

  app.get("/sessions/:id", { schema: { params: IdParams, response: { 200: SessionReply } } }, async (request) => {
    const row = await findSession(db, request.params.id);
    if (!row) refuse("session_not_found");
    const session = sessionReply(row);
    const viewer = request.actor;
    const own = !!viewer && (viewer.role === "admin" || viewer.userId === session.expert_id);
    if (session.status !== "published" && !own) refuse("session_not_found");
    return session;
  });

  app.delete(
    "/sessions/:id",
    { onRequest: requireActor("expert"), schema: { params: IdParams, response: { 200: SessionDeletedReply } } },
    async (request) => {
      const actor = actorOf(request);
      const sessionId = request.params.id;
      const existing = await findSession(db, sessionId);
      const expertId = actor.role === "admin" ? (existing?.expert_id ?? "") : actor.userId;
      const result = valueOf(
        await sessions.handle(
          sessionStream(sessionId),
          { type: "DeleteSession", sessionId, expertId, actor: commandActor(actor) },
          { actor: commandActor(actor) },
        ),
      );
      await projected(result);
      return { session: { id: sessionId } };
    },
  );

  // The session and the calendar as their streams have them (the decider's view, as the booking
  // decision sees them), from memory while no append has been announced since they were read.
  const sessionStates = new StreamStates(deps.log, (stream) => sessions.load(stream));
  const calendarStates = new StreamStates(deps.log, (stream) => calendar.load(stream));
  const expertStates = new StreamStates(deps.log, (stream) => experts.load(stream));
  // A session's expert is set when it is created and never changes: once known, the calendar is
  // asked for beside the session instead of after it (one round trip when both must be read).
  const expertOfSession = new Map<string, string>();

  // The bookable start times, computed by the same function over the same calendar state as the booking decision.
  app.get(
    "/sessions/:id/availability",
    { schema: { params: IdParams, querystring: AvailabilityQuery, response: { 200: AvailabilityReply } } },
    async (request, reply) => {
      const sessionId = request.params.id;
      const known = expertOfSession.get(sessionId);
      const early = known === undefined ? undefined : calendarStates.get(calendarStream(known));
      early?.catch(() => undefined); // awaited below, unless the session is refused first
      const { state: session } = await sessionStates.get(sessionStream(sessionId));
      if (session.kind !== "saved" || session.status !== "published") refuse("session_not_found");
      if (known === undefined) {
        if (expertOfSession.size >= 100_000) expertOfSession.clear();
        expertOfSession.set(sessionId, session.expertId);
      }
      const stream = calendarStream(session.expertId);
      const [{ state, version }, { state: expert }] = await Promise.all([
        early && known === session.expertId ? early : calendarStates.get(stream),
        expertStates.get(expertStream(session.expertId)),
      ]);
      const now = clock();
      const hours = expertHours(state);
      // The booking decision's rule: nothing is offered for an expert our team has not approved, or has suspended.
      const bookable = expert.kind === "profiled" && isBookable(expert.vetting) && !state.paused;
      if (!hours || !bookable) return { timezone: null, times: [] };
      const zone = hours.schedule.timezone;
      const from = request.query.from ? DateTime.fromISO(request.query.from, { zone }).startOf("day").toUTC().toISO()! : undefined;
      const to = request.query.to ? DateTime.fromISO(request.query.to, { zone }).endOf("day").toUTC().toISO()! : undefined;
      // Weekly hours, extra hours, time off, buffers and notice: what the booking decision reads too.
      const query = {
        ...hours,
        lengthMinutes: session.definition.lengthMinutes,
        busy: busyPeriods(state, now),
        now,
        ...(from && { from }),
        ...(to && { to }),
      };
      // Already JSON, checked against the reply's schema when it was made: Fastify's serialiser is skipped.
      const serialised: FastifyReply = reply;
      return serialised.type("application/json; charset=utf-8").send(answers.replyBody({ calendar: stream, version, query }));
    },
  );
};
