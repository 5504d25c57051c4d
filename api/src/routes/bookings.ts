import { randomUUID } from "node:crypto";
import { z } from "zod";
import { UserIdParams, BookingIdParams, BookingNotesBody, BookingReply, BookingRequestedReply, BookingPrepBody, BookingScheduleBody, BookingStatusBody, CalendarCommand, CreateBookingBody, IdParams, parseInput } from "@booking/contracts";
import { calendarStream, sessionStream } from "@booking/engine";
import type { AppContext } from "../context.ts";
import { actorOf, requireActor } from "../http/auth-guard.ts";
import { refuse, valueOf } from "../http/errors.ts";
import type { RoutePlugin } from "../http/route-plugin.ts";
import { bookingReply, bookingsOfCreator, bookingsOfExpertUser, creatorBookingFacts, evolveBooking, findBooking, toProjected, unnamedParties, type BookingRow, type BookingWithParties } from "@booking/projections";
import { commandActor } from "./guards.ts";
import { acceptedCurrentTerms } from "./terms.ts";
import { idempotencyKeyOf } from "./sessions.ts";

type SignedIn = NonNullable<Parameters<typeof commandActor>[0]>;

/** A booking the caller is party to (or any, for an admin); anyone else gets "No booking found", never a hint that it exists. */
async function bookingFor(ctx: AppContext, actor: SignedIn, bookingId: string): Promise<BookingWithParties> {
  const row = await findBooking(ctx.db, bookingId);
  if (!row || (actor.role !== "admin" && actor.userId !== row.creator_id && actor.userId !== row.expert_user_id)) refuse("booking_not_found");
  return row;
}

/** Validate a lifecycle command once (as at any boundary), run it on the expert's calendar, and wait for the read models. */
async function runOnBooking(ctx: AppContext, actor: SignedIn, row: BookingWithParties, command: Record<string, unknown> & { type: CalendarCommand["type"] }) {
  const parsed = valueOf(parseInput(CalendarCommand, { ...command, expertId: row.expert_id, bookingId: row.booking_id, actor: commandActor(actor) }));
  const result = valueOf(await ctx.calendar.handle(calendarStream(row.expert_id), parsed, { actor: commandActor(actor) }));
  await ctx.projected(result);
  // If the read model is still behind after waiting, answer with the row as it was rather than fail.
  return bookingReply((await findBooking(ctx.db, row.booking_id)) ?? row);
}

/** Replies sent through contracts' schemas: the OpenAPI document shows them, and a reply that strays from one fails (a 500 in tests), never a field silently dropped. */
const oneBooking = { response: { 200: BookingReply } };
const bookingList = { response: { 200: z.array(BookingReply) } };

export const bookingRoutes: RoutePlugin = async (app, ctx) => {
  app.post("/bookings", { onRequest: requireActor(), schema: { body: CreateBookingBody, response: { 201: BookingRequestedReply } } }, async (request, reply) => {
    const actor = actorOf(request);
    const { state: session } = await ctx.sessions.load(sessionStream(request.body.session_id));
    if (session.kind !== "saved") refuse("session_not_found");
    const expertId = session.expertId;
    const bookingId = randomUUID();
    const d = session.definition;
    // The route gathers the facts (session, terms, the creator's other bookings); the calendar decides.
    const creatorAcceptedTerms = await acceptedCurrentTerms(ctx, actor.userId);
    const result = await ctx.creatorBookings.run(actor.userId, async (client) => {
      const written = valueOf(
        await ctx.calendar.handle(
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
            creatorBookings: await creatorBookingFacts(client, actor.userId, ctx.clock()),
            holdMinutes: ctx.holdMinutes,
          },
          { actor: commandActor(actor), idempotencyKey: idempotencyKeyOf(request.headers) },
        ),
      );
      // Held until the booking shows in the read model, so the creator's next request sees it.
      await ctx.projected(written);
      return written;
    });
    const requested = result.events.find((e) => e.type === "BookingRequested")!.data as { bookingId: string };
    const row = await findBooking(ctx.db, requested.bookingId);
    if (row) return reply.status(201).send({ booking: bookingReply(row) });
    // The read model is still behind after waiting: answer with the row its own rule makes of what was written.
    const written = toProjected(result.events).reduce<BookingRow | undefined>((r, e) => ("bookingId" in e.event.data && e.event.data.bookingId === requested.bookingId ? evolveBooking(r, e) : r), undefined);
    return reply.status(201).send({ booking: bookingReply({ ...written!, ...unnamedParties }) });
  });

  app.get("/bookings/creator/me", { onRequest: requireActor("creator"), schema: bookingList }, async (request) => (await bookingsOfCreator(ctx.db, actorOf(request).userId)).map(bookingReply));

  app.get("/bookings/expert/me", { onRequest: requireActor("expert"), schema: bookingList }, async (request) => (await bookingsOfExpertUser(ctx.db, actorOf(request).userId)).map(bookingReply));

  // One user's bookings by id: their own, or anyone's for an admin (who opens a user's dashboard to help them).
  const ownOrAdmin = (request: { params: { userId: string } } & Parameters<typeof actorOf>[0]) => {
    const actor = actorOf(request);
    if (actor.role !== "admin" && actor.userId !== request.params.userId) refuse("forbidden");
  };
  app.get("/bookings/creator/:userId", { onRequest: requireActor("creator"), schema: { params: UserIdParams, ...bookingList } }, async (request) => {
    ownOrAdmin(request);
    return (await bookingsOfCreator(ctx.db, request.params.userId)).map(bookingReply);
  });
  app.get("/bookings/expert/:userId", { onRequest: requireActor("expert"), schema: { params: UserIdParams, ...bookingList } }, async (request) => {
    ownOrAdmin(request);
    return (await bookingsOfExpertUser(ctx.db, request.params.userId)).map(bookingReply);
  });

  app.get("/bookings/:id", { onRequest: requireActor(), schema: { params: IdParams, ...oneBooking } }, async (request) => bookingReply(await bookingFor(ctx, actorOf(request), request.params.id)));

  app.patch("/bookings/:bookingId/status", { onRequest: requireActor(), schema: { params: BookingIdParams, body: BookingStatusBody, ...oneBooking } }, async (request) => {
    const actor = actorOf(request);
    const row = await bookingFor(ctx, actor, request.params.bookingId);
    const b = request.body;
    switch (b.status) {
      case "confirmed":
        return runOnBooking(ctx, actor, row, { type: "ConfirmBooking" });
      case "cancelled":
        return runOnBooking(ctx, actor, row, { type: "CancelBooking", reason: b.reason ?? "" });
      case "more_info_requested":
        return runOnBooking(ctx, actor, row, { type: "RequestInfo", note: b.info_request_note ?? "" });
      case "completed":
        return runOnBooking(ctx, actor, row, { type: "CompleteBooking" });
    }
  });

  app.patch("/bookings/:bookingId/schedule", { onRequest: requireActor(), schema: { params: BookingIdParams, body: BookingScheduleBody, ...oneBooking } }, async (request) => {
    const actor = actorOf(request);
    return runOnBooking(ctx, actor, await bookingFor(ctx, actor, request.params.bookingId), { type: "ProposeTime", scheduledTime: request.body.scheduled_time });
  });

  app.patch("/bookings/:bookingId/prep", { onRequest: requireActor(), schema: { params: BookingIdParams, body: BookingPrepBody, ...oneBooking } }, async (request) => {
    const actor = actorOf(request);
    const b = request.body;
    return runOnBooking(ctx, actor, await bookingFor(ctx, actor, request.params.bookingId), { type: "SubmitPrep", answers: [b.prep_response_1, b.prep_response_2, b.prep_response_3] });
  });

  app.post("/bookings/:bookingId/notes", { onRequest: requireActor(), schema: { params: BookingIdParams, body: BookingNotesBody } }, async (request, reply) => {
    const actor = actorOf(request);
    const b = request.body;
    await runOnBooking(ctx, actor, await bookingFor(ctx, actor, request.params.bookingId), {
      type: "AddNotes",
      notes: { summary: b.summary, recap: b.recap ?? "", takeaways: b.takeaways ?? [], suggestedActions: b.suggested_actions ?? [] },
    });
    const b2 = request.body;
    const row = await findBooking(ctx.db, request.params.bookingId);
    return reply.status(201).send(row?.notes ? notesView(row) : { booking_id: request.params.bookingId, summary: b2.summary, recap: b2.recap ?? "", takeaways: b2.takeaways ?? [], suggested_actions: b2.suggested_actions ?? [] });
  });

  app.get("/bookings/:bookingId/notes", { onRequest: requireActor(), schema: { params: BookingIdParams } }, async (request) => {
    const row = await bookingFor(ctx, actorOf(request), request.params.bookingId);
    if (!row.notes) refuse("not_found");
    return notesView(row);
  });
};

function notesView(row: BookingRow) {
  const n = row.notes!;
  return { booking_id: row.booking_id, summary: n.summary, recap: n.recap, takeaways: n.takeaways, suggested_actions: n.suggestedActions };
}
