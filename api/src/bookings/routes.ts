import { randomUUID } from "node:crypto";
import type pg from "pg";
import {
  CURRENT_TERMS_VERSION,
  DEFAULT_CURRENCY,
  FULL_REFUND_NOTICE_HOURS,
  RESCHEDULE_NOTICE_HOURS,
  type ApplicationStatus,
  type Currency,
  type SessionDefinition,
  BookingIdParams,
  BookingNotesBody,
  BookingReply,
  BookingRequestedReply,
  BookingPrepBody,
  prepAnswersOf,
  BookingScheduleBody,
  BookingStatusBody,
  CalendarCommand,
  CreateBookingBody,
  IdParams,
  SessionNotesReply,
  parseInput,
} from "@booking/contracts";
import { calendarStream, expertStream, joinLinkView, openReschedule, sessionStream, type SessionState } from "@booking/engine";
import {
  bookingReply,
  creatorBookingFacts,
  evolveBooking,
  findAdminTermsAcceptance,
  findBooking,
  findExpert,
  findExpertOfSession,
  findUser,
  sessionRecord,
  toProjected,
  type BookingRow,
  type BookingWithParties,
  type SessionRow,
} from "@booking/projections";
import type { CalendarCommands, ExpertCommands, SessionCommands, TermsCommands } from "../main/index.ts";
import type { CreatorBookingLock } from "./creator-booking-lock.ts";
import { actorOf, requireActor, refuse, valueOf, commandActor, idempotencyKeyOf } from "../http/index.ts";
import type { RoutePlugin, Projected } from "../http/index.ts";
import { acceptedCurrentTerms } from "../terms/index.ts";
import { newMeetingRoom } from "./meeting-room.ts";
import { bookingListRoutes } from "./booking-list-routes.ts";

// A booking's path: the route gathers the facts (the session, the creator's terms and other
// bookings) from the read models in the round trip that takes the creator's lock, sends a command
// to the calendar's handler (../main/commands.ts: engine's calendarDecider over the event store), waits
// once the booking is appended (`appended`: the reply names its log position, which the client's next reads wait
// for), and replies with the row the bookings read model's rule makes of what was written (projections').

export type BookingRouteDeps = {
  /** The bookings read model. */
  db: pg.Pool;
  calendar: CalendarCommands;
  /** Read (never written) here: the session being booked, as its stream has it. */
  sessions: SessionCommands;
  /** Read (never written) here: whose account the expert's profile is, when the read model does not show it yet. */
  experts: ExpertCommands;
  /** Read here: has the creator accepted the current terms. */
  terms: TermsCommands;
  projected: Projected;
  /** For POST /bookings, whose reply is built from its decision: the reply goes once the booking is appended. */
  appended: Projected;
  clock: () => string;
  holdMinutes: number;
  creatorBookings: CreatorBookingLock;
  /** MEETING_ROOM_URL_TEMPLATE: a room per booking where the expert set no link (null: none). */
  meetingRoomUrlTemplate: string | null;
  /** The expert's request for information is also a message of the booking's conversation (issue 31.3): one thread, not two. */
  infoRequestedAsMessage?: (row: BookingWithParties, actor: SignedIn, note: string) => Promise<void>;
};

/** A booking's reply as of `now`: the engine's rules decide whether its request to move is open and what of its meeting link shows. */
export function replyAsOf(row: BookingWithParties, now: string, meetingRoomUrlTemplate: string | null): BookingReply {
  const facts = {
    bookingId: row.booking_id,
    status: row.status,
    scheduledTime: row.scheduled_time,
    joinLink: row.join_link,
    meetingRoom: row.meeting_room,
  };
  return bookingReply(row, {
    rescheduleOpen: openReschedule({ rescheduleTo: row.reschedule_to, scheduledTime: row.scheduled_time }, now) !== null,
    joinLink: joinLinkView(facts, now, meetingRoomUrlTemplate),
  });
}

export type SignedIn = NonNullable<Parameters<typeof commandActor>[0]>;

/** A booking the caller is party to (or any, for an admin); anyone else gets "No booking found", never a hint that it exists. */
export async function bookingFor(db: pg.Pool, actor: SignedIn, bookingId: string): Promise<BookingWithParties> {
  const row = await findBooking(db, bookingId);
  if (!row || (actor.role !== "admin" && actor.userId !== row.creator_id && actor.userId !== row.expert_user_id))
    refuse("booking_not_found");
  return row;
}

/** Validate a lifecycle command once (as at any boundary), run it on the expert's calendar, wait for the read models, and read the booking back. */
export async function runOnBooking(
  { db, calendar, projected }: Pick<BookingRouteDeps, "db" | "calendar" | "projected">,
  actor: SignedIn,
  row: BookingWithParties,
  command: Record<string, unknown> & { type: CalendarCommand["type"] },
): Promise<BookingWithParties> {
  const parsed = valueOf(
    parseInput(CalendarCommand, { ...command, expertId: row.expert_id, bookingId: row.booking_id, actor: commandActor(actor) }),
  );
  const result = valueOf(await calendar.handle(calendarStream(row.expert_id), parsed, { actor: commandActor(actor) }));
  await projected(result);
  // If the read model is still behind after waiting, answer with the row as it was rather than fail.
  return (await findBooking(db, row.booking_id)) ?? row;
}

/** The account an expert's profile belongs to and their application's status, from its stream (null: no profile, nothing to book). */
async function expertStandingOf(experts: ExpertCommands, expertId: string): Promise<{ userId: string; vetting: ApplicationStatus } | null> {
  const { state } = await experts.load(expertStream(expertId));
  return state.kind === "profiled" ? { userId: state.userId, vetting: state.vetting.status } : null;
}

type BookableSession = {
  expertId: string;
  title: string;
  lengthMinutes: SessionDefinition["lengthMinutes"];
  priceCents: number;
  published: boolean;
  prepQuestions: string[];
  instantBooking: boolean;
  currency: Currency;
  fullRefundHours: number;
  rescheduleHours: number;
};

/**
 * The session as the booking request states it: from its read model row when that shows it
 * published (read-your-writes: an edit's reply waited for the row), else from its stream, which
 * decides whether it is missing, deleted or a draft (a row may not show a session just created
 * outside the API yet). Null: nothing to book.
 */
async function bookableSession(row: SessionRow | null, fromStream: () => Promise<SessionState>): Promise<BookableSession | null> {
  if (row && !row.deleted && row.status === "published") {
    // The row holds what a SessionCreated/Updated event set: one of the lengths a definition allows.
    const lengthMinutes = row.length_minutes as SessionDefinition["lengthMinutes"];
    return {
      expertId: row.expert_id,
      title: row.title,
      lengthMinutes,
      priceCents: row.price_cents,
      published: true,
      prepQuestions: row.prep_questions,
      instantBooking: row.instant_booking,
      currency: row.currency as Currency,
      fullRefundHours: row.full_refund_hours,
      rescheduleHours: row.reschedule_hours,
    };
  }
  const state = await fromStream();
  if (state.kind !== "saved") return null;
  const d = state.definition;
  return {
    expertId: state.expertId,
    title: d.title,
    lengthMinutes: d.lengthMinutes,
    priceCents: d.priceCents,
    published: state.status === "published",
    prepQuestions: d.prepQuestions,
    instantBooking: d.instantBooking ?? false,
    currency: d.currency ?? DEFAULT_CURRENCY,
    fullRefundHours: d.fullRefundHours ?? FULL_REFUND_NOTICE_HOURS,
    rescheduleHours: d.rescheduleHours ?? RESCHEDULE_NOTICE_HOURS,
  };
}

/**
 * Replies sent through contracts' schemas: the OpenAPI document shows them, and a reply that strays from one
 * fails (a 500 in tests), never a field silently dropped.
 */
const oneBooking = { response: { 200: BookingReply } };

export const bookingRoutes: RoutePlugin<BookingRouteDeps> = async (app, deps) => {
  const { db, calendar, sessions, experts, appended, clock, holdMinutes, creatorBookings, meetingRoomUrlTemplate } = deps;
  const replyOf = (row: BookingWithParties) => replyAsOf(row, clock(), meetingRoomUrlTemplate);

  app.post(
    "/bookings",
    { onRequest: requireActor(), schema: { body: CreateBookingBody, response: { 201: BookingRequestedReply } } },
    async (request, reply) => {
      const actor = actorOf(request);
      const sessionId = request.body.session_id;
      const bookingId = randomUUID();
      const now = clock();
      // One round trip takes the creator's lock and reads every fact the request needs from the read
      // models (the creator's other bookings, the session, the terms acceptance, the parties' names).
      const { result, names } = await creatorBookings.runReading(
        actor.userId,
        async (q) => {
          const [creatorFacts, row, creator, acceptance, expert] = await Promise.all([
            creatorBookingFacts(q, actor.userId, now),
            sessionRecord(q, sessionId),
            findUser(q, actor.userId),
            findAdminTermsAcceptance(q, `${actor.userId}:${CURRENT_TERMS_VERSION}`),
            findExpertOfSession(q, sessionId),
          ]);
          return { creatorFacts, row, creator, acceptance, expert };
        },
        async (facts, _client, wrote) => {
          const session = await bookableSession(facts.row, () => sessions.load(sessionStream(sessionId)).then((l) => l.state));
          if (!session) refuse("session_not_found");
          // An acceptance once shown in the read model stands; one not shown yet is looked for in its stream.
          const creatorAcceptedTerms = facts.acceptance !== null || (await acceptedCurrentTerms(deps, actor.userId));
          const expertId = session.expertId;
          // Whose account the expert is and where their application stands: the read model's row (an admin's
          // decision waited for it), else their stream. A suspension is exact on the calendar itself.
          const expert = facts.expert?.expert_id === expertId ? facts.expert : null;
          const standing = expert ? { userId: expert.user_id, vetting: expert.vetting_status } : await expertStandingOf(experts, expertId);
          if (standing === null) refuse("session_not_found");
          const written = valueOf(
            await calendar.handle(
              calendarStream(expertId),
              {
                type: "RequestBooking",
                expertId,
                bookingId,
                actor: commandActor(actor),
                scheduledTime: request.body.scheduled_time,
                session: { sessionId, ...session },
                expertUserId: standing.userId,
                expertVetting: standing.vetting,
                creatorAcceptedTerms,
                creatorBookings: facts.creatorFacts,
                holdMinutes,
              },
              { actor: commandActor(actor), idempotencyKey: idempotencyKeyOf(request.headers) },
            ),
          );
          // The creator's next request waits for the read models to show it (creator-booking-lock.ts); this reply does not.
          wrote(written.position);
          await appended(written);
          return { result: written, names: { creator: facts.creator, expert } };
        },
      );
      const requested = result.events.find((e) => e.type === "BookingRequested")!.data as { bookingId: string };
      // A repeat of an earlier request answers with the booking as it is now.
      if (result.replayed) {
        const row = await findBooking(db, requested.bookingId);
        if (row) return reply.status(201).send({ booking: replyOf(row) });
      }
      // The reply is the read model's own rule applied to what was written: the row it now holds.
      const written = toProjected(result.events).reduce<BookingRow | undefined>(
        (r, e) => ("bookingId" in e.event.data && e.event.data.bookingId === requested.bookingId ? evolveBooking(r, e) : r),
        undefined,
      )!;
      const expert = names.expert ?? (await findExpert(db, written.expert_id));
      return reply.status(201).send({
        booking: replyOf({
          ...written,
          creator_first_name: names.creator?.first_name ?? null,
          creator_last_name: names.creator?.last_name ?? null,
          expert_first_name: expert?.first_name ?? null,
          expert_last_name: expert?.last_name ?? null,
          expert_image: expert?.profile_image ?? null,
        }),
      });
    },
  );

  await bookingListRoutes(app, { db, replyOf });

  app.get("/bookings/:id", { onRequest: requireActor(), schema: { params: IdParams, ...oneBooking } }, async (request) =>
    replyOf(await bookingFor(db, actorOf(request), request.params.id)),
  );

  const onBooking = (actor: SignedIn, row: BookingWithParties, command: Parameters<typeof runOnBooking>[3]) =>
    runOnBooking(deps, actor, row, command);

  app.patch(
    "/bookings/:bookingId/status",
    { onRequest: requireActor(), schema: { params: BookingIdParams, body: BookingStatusBody, ...oneBooking } },
    async (request) => {
      const actor = actorOf(request);
      const row = await bookingFor(db, actor, request.params.bookingId);
      const b = request.body;
      switch (b.status) {
        case "confirmed":
          // The room it meets in unless the expert sets a link: drawn here, recorded by the confirmation (issue 27.13).
          return replyOf(await onBooking(actor, row, { type: "ConfirmBooking", meetingRoom: newMeetingRoom() }));
        case "cancelled":
          return replyOf(await onBooking(actor, row, { type: "CancelBooking", reason: b.reason ?? "" }));
        case "more_info_requested": {
          const asked = await onBooking(actor, row, { type: "RequestInfo", note: b.info_request_note ?? "" });
          if (actor.role === "expert" && b.info_request_note?.trim()) await deps.infoRequestedAsMessage?.(row, actor, b.info_request_note);
          return replyOf(asked);
        }
        case "completed":
          return replyOf(await onBooking(actor, row, { type: "CompleteBooking" }));
      }
    },
  );

  app.patch(
    "/bookings/:bookingId/schedule",
    { onRequest: requireActor(), schema: { params: BookingIdParams, body: BookingScheduleBody, ...oneBooking } },
    async (request) => {
      const actor = actorOf(request);
      return replyOf(
        await onBooking(actor, await bookingFor(db, actor, request.params.bookingId), {
          type: "ProposeTime",
          scheduledTime: request.body.scheduled_time,
        }),
      );
    },
  );

  app.patch(
    "/bookings/:bookingId/prep",
    { onRequest: requireActor(), schema: { params: BookingIdParams, body: BookingPrepBody, ...oneBooking } },
    async (request) => {
      const actor = actorOf(request);
      return replyOf(
        await onBooking(actor, await bookingFor(db, actor, request.params.bookingId), {
          type: "SubmitPrep",
          answers: prepAnswersOf(request.body),
        }),
      );
    },
  );

  app.post(
    "/bookings/:bookingId/notes",
    { onRequest: requireActor(), schema: { params: BookingIdParams, body: BookingNotesBody, response: { 201: SessionNotesReply } } },
    async (request, reply) => {
      const actor = actorOf(request);
      const b = request.body;
      const notes = { summary: b.summary, recap: b.recap ?? "", takeaways: b.takeaways ?? [], suggestedActions: b.suggested_actions ?? [] };
      const row = await onBooking(actor, await bookingFor(db, actor, request.params.bookingId), { type: "AddNotes", notes });
      // The row read back carries the notes as recorded; if the read model is still behind, the ones sent.
      return reply.status(201).send(notesReply({ ...row, notes: row.notes ?? notes }));
    },
  );

  app.get(
    "/bookings/:bookingId/notes",
    { onRequest: requireActor(), schema: { params: BookingIdParams, response: { 200: SessionNotesReply } } },
    async (request) => {
      const row = await bookingFor(db, actorOf(request), request.params.bookingId);
      if (!row.notes) refuse("not_found");
      return notesReply({ ...row, notes: row.notes });
    },
  );
};

function notesReply(row: Pick<BookingRow, "booking_id"> & { notes: NonNullable<BookingRow["notes"]> }): SessionNotesReply {
  const n = row.notes;
  return { booking_id: row.booking_id, summary: n.summary, recap: n.recap, takeaways: n.takeaways, suggested_actions: n.suggestedActions };
}
