import { randomUUID } from "node:crypto";
import {
  BookingRules,
  BookingRulesBody,
  BookingRulesReply,
  BookingsInTimeOffReply,
  DateOverride,
  DateOverrideAddedReply,
  DateOverrideBody,
  ExpertIdParams,
  Id,
  NoContent,
  TimeOff,
  TimeOffAddedReply,
  TimeOffBody,
  parseInput,
  timeOffOfBody,
  type Actor,
  type BookingInTimeOffReply,
  type CalendarCommand,
  type TimeOffReply,
} from "@booking/contracts";
import { bookingsInTimeOff, calendarStream, type BookingInTimeOff } from "@booking/engine";
import type { CalendarCommands, TermsCommands } from "../main/index.ts";
import type { Projected, RoutePlugin } from "../http/index.ts";
import { actorOf, requireActor, valueOf, commandActor, requireCurrentTerms, requireOwnExpert } from "../http/index.ts";

// The expert's own time, beside the weekly schedule (POST /experts/{expertId}/schedule): time off,
// extra hours on a date and the booking rules (buffers, minimum notice). Each is a command on the
// expert's calendar stream, so availability and the booking decision see it at once. Time off that
// covers bookings already made is added all the same; the reply and
// GET .../time-off/affected-bookings list those bookings for the expert to move or cancel.

export type TimeOffRouteDeps = {
  calendar: CalendarCommands;
  terms: TermsCommands;
  projected: Projected;
  clock: () => string;
};

const TimeOffParams = ExpertIdParams.extend({ timeOffId: Id });
const DateOverrideParams = ExpertIdParams.extend({ overrideId: Id });

export function bookingInTimeOffReply({ booking: b, timeOffIds }: BookingInTimeOff): BookingInTimeOffReply {
  return {
    booking_id: b.bookingId,
    status: b.status,
    scheduled_time: b.scheduledTime,
    length_minutes: b.lengthMinutes,
    session_title: b.sessionTitle,
    creator_id: b.creatorId,
    time_off_ids: timeOffIds,
  };
}

const timeOffReply = (t: TimeOff): TimeOffReply => ({
  id: t.timeOffId,
  start: t.start,
  end: t.end,
  reason: t.reason,
  whole_days: t.start.endsWith("T00:00") && t.end.endsWith("T00:00"),
});

const rulesReply = (r: BookingRules): BookingRulesReply => ({
  buffer_before_minutes: r.bufferBeforeMinutes,
  buffer_after_minutes: r.bufferAfterMinutes,
  min_notice_hours: r.minNoticeHours,
});

export const timeOffRoutes: RoutePlugin<TimeOffRouteDeps> = async (app, deps) => {
  const { calendar, projected, clock } = deps;

  /** The expert themselves (current terms accepted) or an admin: the schedule route's rule. */
  async function ownCalendar(
    request: { params: { expertId: string } } & Parameters<typeof actorOf>[0],
  ): Promise<{ expertId: string; actor: Actor }> {
    const actor = actorOf(request);
    const expertId = request.params.expertId;
    requireOwnExpert(actor, expertId);
    await requireCurrentTerms(deps, actor);
    return { expertId, actor: commandActor(actor) };
  }

  async function decide(expertId: string, actor: Actor, command: CalendarCommand): Promise<void> {
    await projected(valueOf(await calendar.handle(calendarStream(expertId), command, { actor })));
  }

  async function inTimeOff(expertId: string): Promise<BookingInTimeOffReply[]> {
    const { state } = await calendar.load(calendarStream(expertId));
    return bookingsInTimeOff(state, clock()).map(bookingInTimeOffReply);
  }

  app.put(
    "/experts/:expertId/booking-rules",
    { onRequest: requireActor("expert"), schema: { params: ExpertIdParams, body: BookingRulesBody, response: { 200: BookingRulesReply } } },
    async (request) => {
      const { expertId, actor } = await ownCalendar(request);
      const b = request.body;
      const rules = valueOf(
        parseInput(BookingRules, {
          bufferBeforeMinutes: b.buffer_before_minutes,
          bufferAfterMinutes: b.buffer_after_minutes,
          minNoticeHours: b.min_notice_hours,
        }),
      );
      await decide(expertId, actor, { type: "SetBookingRules", expertId, actor, rules });
      return rulesReply(rules);
    },
  );

  app.post(
    "/experts/:expertId/time-off",
    { onRequest: requireActor("expert"), schema: { params: ExpertIdParams, body: TimeOffBody, response: { 201: TimeOffAddedReply } } },
    async (request, reply) => {
      const { expertId, actor } = await ownCalendar(request);
      const timeOff = valueOf(parseInput(TimeOff, timeOffOfBody(request.body, request.body.id ?? randomUUID())));
      await decide(expertId, actor, { type: "AddTimeOff", expertId, actor, timeOff });
      return reply.status(201).send({ time_off: timeOffReply(timeOff), affected_bookings: await inTimeOff(expertId) });
    },
  );

  app.delete(
    "/experts/:expertId/time-off/:timeOffId",
    { onRequest: requireActor("expert"), schema: { params: TimeOffParams, response: { 204: NoContent } } },
    async (request, reply) => {
      const { expertId, actor } = await ownCalendar(request);
      await decide(expertId, actor, { type: "RemoveTimeOff", expertId, actor, timeOffId: request.params.timeOffId });
      return reply.status(204).send(null);
    },
  );

  app.get(
    "/experts/:expertId/time-off/affected-bookings",
    { onRequest: requireActor("expert"), schema: { params: ExpertIdParams, response: { 200: BookingsInTimeOffReply } } },
    async (request) => {
      requireOwnExpert(actorOf(request), request.params.expertId);
      return inTimeOff(request.params.expertId);
    },
  );

  app.post(
    "/experts/:expertId/date-overrides",
    {
      onRequest: requireActor("expert"),
      schema: { params: ExpertIdParams, body: DateOverrideBody, response: { 201: DateOverrideAddedReply } },
    },
    async (request, reply) => {
      const { expertId, actor } = await ownCalendar(request);
      const b = request.body;
      const override = valueOf(
        parseInput(DateOverride, { overrideId: b.id ?? randomUUID(), date: b.date, start_local: b.start_local, end_local: b.end_local }),
      );
      await decide(expertId, actor, { type: "AddDateOverride", expertId, actor, override });
      const { overrideId, ...hours } = override;
      return reply.status(201).send({ date_override: { id: overrideId, ...hours } });
    },
  );

  app.delete(
    "/experts/:expertId/date-overrides/:overrideId",
    { onRequest: requireActor("expert"), schema: { params: DateOverrideParams, response: { 204: NoContent } } },
    async (request, reply) => {
      const { expertId, actor } = await ownCalendar(request);
      await decide(expertId, actor, { type: "RemoveDateOverride", expertId, actor, overrideId: request.params.overrideId });
      return reply.status(204).send(null);
    },
  );
};
