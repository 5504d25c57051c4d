import { randomUUID } from "node:crypto";
import type pg from "pg";
import { z } from "zod";
import { UserIdParams, BookingIdParams, BookingNotesBody, BookingReply, BookingRequestedReply, BookingPrepBody, BookingScheduleBody, BookingStatusBody, CalendarCommand, CreateBookingBody, IdParams, SessionNotesReply, parseInput } from "@booking/contracts";
import { calendarStream, joinLinkView, openReschedule, sessionStream } from "@booking/engine";
import { bookingReply, bookingsOfCreator, bookingsOfExpertUser, creatorBookingFacts, evolveBooking, findBooking, toProjected, unnamedParties, type BookingRow, type BookingWithParties } from "@booking/projections";
import type { CalendarCommands, SessionCommands, TermsCommands } from "../commands.ts";
import type { CreatorBookingLock } from "../creator-booking-lock.ts";
import { actorOf, requireActor } from "../http/auth-guard.ts";
import { refuse, valueOf } from "../http/errors.ts";
import type { RoutePlugin } from "../http/route-plugin.ts";
import type { Projected } from "../read-your-writes.ts";
import { commandActor } from "./guards.ts";
import { acceptedCurrentTerms } from "./terms.ts";
import { idempotencyKeyOf } from "./sessions.ts";

// A booking's path: the route gathers the facts (the session, the creator's terms and other
// bookings) from the read models and streams, sends a command to the calendar's handler
// (../commands.ts: engine's calendarDecider over the event store), waits until the bookings read
// model shows the write (`projected`), and replies with that read model's row (projections').

export type BookingRouteDeps = {
  /** The bookings read model. */
  db: pg.Pool;
  calendar: CalendarCommands;
  /** Read (never written) here: the session being booked, as its stream has it. */
  sessions: SessionCommands;
  /** Read here: has the creator accepted the current terms. */
  terms: TermsCommands;
  projected: Projected;
  clock: () => string;
  holdMinutes: number;
  creatorBookings: CreatorBookingLock;
  /** MEETING_ROOM_URL_TEMPLATE: a room per booking where the expert set no link (null: none). */
  meetingRoomUrlTemplate: string | null;
};

/** A booking's reply as of `now`: the engine's rules decide whether its request to move is open and what of its meeting link shows. */
export function replyAsOf(row: BookingWithParties, now: string, meetingRoomUrlTemplate: string | null): BookingReply {
  const facts = { bookingId: row.booking_id, status: row.status, scheduledTime: row.scheduled_time, joinLink: row.join_link };
  return bookingReply(row, {
    rescheduleOpen: openReschedule({ rescheduleTo: row.reschedule_to, scheduledTime: row.scheduled_time }, now) !== null,
    joinLink: joinLinkView(facts, now, meetingRoomUrlTemplate),
  });
}

type SignedIn = NonNullable<Parameters<typeof commandActor>[0]>;

/** A booking the caller is party to (or any, for an admin); anyone else gets "No booking found", never a hint that it exists. */
export async function bookingFor(db: pg.Pool, actor: SignedIn, bookingId: string): Promise<BookingWithParties> {
  const row = await findBooking(db, bookingId);
  if (!row || (actor.role !== "admin" && actor.userId !== row.creator_id && actor.userId !== row.expert_user_id)) refuse("booking_not_found");
  return row;
}

/** Validate a lifecycle command once (as at any boundary), run it on the expert's calendar, wait for the read models, and read the booking back. */
export async function runOnBooking(
  { db, calendar, projected }: Pick<BookingRouteDeps, "db" | "calendar" | "projected">,
  actor: SignedIn,
  row: BookingWithParties,
  command: Record<string, unknown> & { type: CalendarCommand["type"] },
): Promise<BookingWithParties> {
  const parsed = valueOf(parseInput(CalendarCommand, { ...command, expertId: row.expert_id, bookingId: row.booking_id, actor: commandActor(actor) }));
  const result = valueOf(await calendar.handle(calendarStream(row.expert_id), parsed, { actor: commandActor(actor) }));
  await projected(result);
  // If the read model is still behind after waiting, answer with the row as it was rather than fail.
  return (await findBooking(db, row.booking_id)) ?? row;
}

/** Replies sent through contracts' schemas: the OpenAPI document shows them, and a reply that strays from one fails (a 500 in tests), never a field silently dropped. */
const oneBooking = { response: { 200: BookingReply } };
const bookingList = { response: { 200: z.array(BookingReply) } };

export const bookingRoutes: RoutePlugin<BookingRouteDeps> = async (app, deps) => {
  const { db, calendar, sessions, projected, clock, holdMinutes, creatorBookings, meetingRoomUrlTemplate } = deps;
  const replyOf = (row: BookingWithParties) => replyAsOf(row, clock(), meetingRoomUrlTemplate);

  app.post("/bookings", { onRequest: requireActor(), schema: { body: CreateBookingBody, response: { 201: BookingRequestedReply } } }, async (request, reply) => {
    const actor = actorOf(request);
    const { state: session } = await sessions.load(sessionStream(request.body.session_id));
    if (session.kind !== "saved") refuse("session_not_found");
    const expertId = session.expertId;
    const bookingId = randomUUID();
    const d = session.definition;
    // The route gathers the facts (session, terms, the creator's other bookings); the calendar decides.
    const creatorAcceptedTerms = await acceptedCurrentTerms(deps, actor.userId);
    const result = await creatorBookings.run(actor.userId, async (client) => {
      const written = valueOf(
        await calendar.handle(
          calendarStream(expertId),
          {
            type: "RequestBooking",
            expertId,
            bookingId,
            actor: commandActor(actor),
            scheduledTime: request.body.scheduled_time,
            session: { sessionId: request.body.session_id, expertId, title: d.title, lengthMinutes: d.lengthMinutes, priceCents: d.priceCents, published: session.status === "published", prepQuestions: d.prepQuestions },
            expertUserId: expertId,
            creatorAcceptedTerms,
            creatorBookings: await creatorBookingFacts(client, actor.userId, clock()),
            holdMinutes,
          },
          { actor: commandActor(actor), idempotencyKey: idempotencyKeyOf(request.headers) },
        ),
      );
      // Held until the booking shows in the read model, so the creator's next request sees it.
      await projected(written);
      return written;
    });
    const requested = result.events.find((e) => e.type === "BookingRequested")!.data as { bookingId: string };
    const row = await findBooking(db, requested.bookingId);
    if (row) return reply.status(201).send({ booking: replyOf(row) });
    // The read model is still behind after waiting: answer with the row its own rule makes of what was written.
    const written = toProjected(result.events).reduce<BookingRow | undefined>((r, e) => ("bookingId" in e.event.data && e.event.data.bookingId === requested.bookingId ? evolveBooking(r, e) : r), undefined);
    return reply.status(201).send({ booking: replyOf({ ...written!, ...unnamedParties }) });
  });

  app.get("/bookings/creator/me", { onRequest: requireActor("creator"), schema: bookingList }, async (request) => (await bookingsOfCreator(db, actorOf(request).userId)).map(replyOf));

  app.get("/bookings/expert/me", { onRequest: requireActor("expert"), schema: bookingList }, async (request) => (await bookingsOfExpertUser(db, actorOf(request).userId)).map(replyOf));

  // One user's bookings by id: their own, or anyone's for an admin (who opens a user's dashboard to help them).
  const ownOrAdmin = (request: { params: { userId: string } } & Parameters<typeof actorOf>[0]) => {
    const actor = actorOf(request);
    if (actor.role !== "admin" && actor.userId !== request.params.userId) refuse("forbidden");
  };
  app.get("/bookings/creator/:userId", { onRequest: requireActor("creator"), schema: { params: UserIdParams, ...bookingList } }, async (request) => {
    ownOrAdmin(request);
    return (await bookingsOfCreator(db, request.params.userId)).map(replyOf);
  });
  app.get("/bookings/expert/:userId", { onRequest: requireActor("expert"), schema: { params: UserIdParams, ...bookingList } }, async (request) => {
    ownOrAdmin(request);
    return (await bookingsOfExpertUser(db, request.params.userId)).map(replyOf);
  });

  app.get("/bookings/:id", { onRequest: requireActor(), schema: { params: IdParams, ...oneBooking } }, async (request) => replyOf(await bookingFor(db, actorOf(request), request.params.id)));

  const onBooking = (actor: SignedIn, row: BookingWithParties, command: Parameters<typeof runOnBooking>[3]) => runOnBooking(deps, actor, row, command);

  app.patch("/bookings/:bookingId/status", { onRequest: requireActor(), schema: { params: BookingIdParams, body: BookingStatusBody, ...oneBooking } }, async (request) => {
    const actor = actorOf(request);
    const row = await bookingFor(db, actor, request.params.bookingId);
    const b = request.body;
    switch (b.status) {
      case "confirmed":
        return replyOf(await onBooking(actor, row, { type: "ConfirmBooking" }));
      case "cancelled":
        return replyOf(await onBooking(actor, row, { type: "CancelBooking", reason: b.reason ?? "" }));
      case "more_info_requested":
        return replyOf(await onBooking(actor, row, { type: "RequestInfo", note: b.info_request_note ?? "" }));
      case "completed":
        return replyOf(await onBooking(actor, row, { type: "CompleteBooking" }));
    }
  });

  app.patch("/bookings/:bookingId/schedule", { onRequest: requireActor(), schema: { params: BookingIdParams, body: BookingScheduleBody, ...oneBooking } }, async (request) => {
    const actor = actorOf(request);
    return replyOf(await onBooking(actor, await bookingFor(db, actor, request.params.bookingId), { type: "ProposeTime", scheduledTime: request.body.scheduled_time }));
  });

  app.patch("/bookings/:bookingId/prep", { onRequest: requireActor(), schema: { params: BookingIdParams, body: BookingPrepBody, ...oneBooking } }, async (request) => {
    const actor = actorOf(request);
    const b = request.body;
    return replyOf(await onBooking(actor, await bookingFor(db, actor, request.params.bookingId), { type: "SubmitPrep", answers: [b.prep_response_1, b.prep_response_2, b.prep_response_3] }));
  });

  app.post("/bookings/:bookingId/notes", { onRequest: requireActor(), schema: { params: BookingIdParams, body: BookingNotesBody, response: { 201: SessionNotesReply } } }, async (request, reply) => {
    const actor = actorOf(request);
    const b = request.body;
    const notes = { summary: b.summary, recap: b.recap ?? "", takeaways: b.takeaways ?? [], suggestedActions: b.suggested_actions ?? [] };
    const row = await onBooking(actor, await bookingFor(db, actor, request.params.bookingId), { type: "AddNotes", notes });
    // The row read back carries the notes as recorded; if the read model is still behind, the ones sent.
    return reply.status(201).send(notesReply({ ...row, notes: row.notes ?? notes }));
  });

  app.get("/bookings/:bookingId/notes", { onRequest: requireActor(), schema: { params: BookingIdParams, response: { 200: SessionNotesReply } } }, async (request) => {
    const row = await bookingFor(db, actorOf(request), request.params.bookingId);
    if (!row.notes) refuse("not_found");
    return notesReply({ ...row, notes: row.notes });
  });
};

function notesReply(row: Pick<BookingRow, "booking_id"> & { notes: NonNullable<BookingRow["notes"]> }): SessionNotesReply {
  const n = row.notes;
  return { booking_id: row.booking_id, summary: n.summary, recap: n.recap, takeaways: n.takeaways, suggested_actions: n.suggestedActions };
}
