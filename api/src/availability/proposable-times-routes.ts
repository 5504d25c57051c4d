import { DateTime } from "luxon";
import type pg from "pg";
import { BookingIdParams, ProposableTimesQuery, ProposableTimesReply } from "@booking/contracts";
import { busyPeriods, calendarStream, expertHours, proposableStarts } from "@booking/engine";
import { findBooking } from "@booking/projections";
import type { CalendarCommands } from "../main/index.ts";
import { actorOf, requireActor, refuse } from "../http/index.ts";
import type { RoutePlugin } from "../http/index.ts";

// The times an expert may propose for a booking (their bookable times), computed by the engine's rule
// over the expert's calendar as the ProposeTime decision will see it, so the page never offers a time it refuses.

export type ProposableTimesRouteDeps = {
  /** The bookings read model (who the booking's parties are). */
  db: pg.Pool;
  /** Read (never written) here: the expert's calendar as the decider folds it. */
  calendar: CalendarCommands;
  clock: () => string;
};

export const proposableTimesRoutes: RoutePlugin<ProposableTimesRouteDeps> = async (app, { db, calendar, clock }) => {
  app.get(
    "/bookings/:bookingId/proposable-times",
    {
      onRequest: requireActor(),
      schema: { params: BookingIdParams, querystring: ProposableTimesQuery, response: { 200: ProposableTimesReply } },
    },
    async (request) => {
      const actor = actorOf(request);
      const row = await findBooking(db, request.params.bookingId);
      // As GET /bookings/:id: anyone outside the booking learns nothing of it; its creator may see it but not propose.
      const expert = !!row && actor.userId === row.expert_user_id;
      if (!row || (actor.role !== "admin" && !expert && actor.userId !== row.creator_id)) refuse("booking_not_found");
      if (actor.role !== "admin" && !expert) refuse("not_booking_party");
      const { state } = await calendar.load(calendarStream(row.expert_id));
      const booking = state.bookings.get(row.booking_id);
      const hours = expertHours(state);
      if (!hours || !booking) return { timezone: state.schedule?.timezone ?? null, times: [] };
      const zone = hours.schedule.timezone;
      const day = request.query.date ? DateTime.fromISO(request.query.date, { zone }) : null;
      const now = clock();
      const times = proposableStarts({
        // Weekly and extra hours, time off, buffers and notice hold for the expert's proposals as for bookings (issue 27.12).
        ...hours,
        lengthMinutes: booking.lengthMinutes,
        // The booking's own time is not in the way of moving it.
        busy: busyPeriods(state, now, booking.bookingId),
        now,
        ...(day && { from: day.startOf("day").toUTC().toISO()!, to: day.endOf("day").toUTC().toISO()! }),
      });
      return { timezone: zone, times };
    },
  );
};
