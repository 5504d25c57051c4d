import type pg from "pg";
import { BookingIdParams, CancellationReply, type CalendarCommand } from "@booking/contracts";
import { calendarDecider, calendarStream, fullRefundUntil, refundableCents } from "@booking/engine";
import { findBooking } from "@booking/projections";
import type { CalendarCommands } from "../main/index.ts";
import { actorOf, requireActor, refuse, valueOf, commandActor } from "../http/index.ts";
import type { RoutePlugin } from "../http/index.ts";

// What cancelling a booking now would refund the one asking: the calendar decides the asker's
// CancelBooking on its current state without writing it, so the amount shown is the amount the
// cancellation will record (and a cancellation it would refuse is refused here with the same words).

export type CancellationRouteDeps = {
  /** The bookings read model (who the booking's parties are). */
  db: pg.Pool;
  /** Read (never written) here: the expert's calendar as the decider folds it. */
  calendar: CalendarCommands;
  clock: () => string;
};

export const cancellationRoutes: RoutePlugin<CancellationRouteDeps> = async (app, { db, calendar, clock }) => {
  app.get(
    "/bookings/:bookingId/cancellation",
    { onRequest: requireActor(), schema: { params: BookingIdParams, response: { 200: CancellationReply } } },
    async (request) => {
      const actor = actorOf(request);
      const row = await findBooking(db, request.params.bookingId);
      // As GET /bookings/:id: anyone outside the booking learns nothing of it.
      if (!row || (actor.role !== "admin" && actor.userId !== row.creator_id && actor.userId !== row.expert_user_id))
        refuse("booking_not_found");
      const cancel: CalendarCommand = {
        type: "CancelBooking",
        expertId: row.expert_id,
        bookingId: row.booking_id,
        actor: commandActor(actor),
        reason: "",
      };
      // About the cancel it previews: a booking closed long ago is folded in, so it answers as cancelling it would.
      const { state } = await calendar.load(calendarStream(row.expert_id), { about: cancel });
      const booking = state.bookings.get(row.booking_id);
      if (!booking) refuse("booking_not_found");
      const events = valueOf(calendarDecider.decide(cancel, state, { now: clock() }));
      const cancelled = events.find((e) => e.type === "Cancelled");
      return {
        refund_cents: cancelled?.type === "Cancelled" ? cancelled.data.refundCents : 0,
        paid_cents: refundableCents(booking),
        full_refund_until: fullRefundUntil(booking),
      };
    },
  );
};
