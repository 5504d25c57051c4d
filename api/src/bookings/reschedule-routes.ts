import { BookingIdParams, BookingReply, JoinLinkBody, JoinLinkReply, RescheduleBody, RescheduleDeclineBody } from "@booking/contracts";
import { joinLinkOpensAt } from "@booking/engine";
import { creatorBookingFacts } from "@booking/projections";
import { actorOf, requireActor } from "../http/index.ts";
import type { RoutePlugin } from "../http/index.ts";
import { newMeetingRoom } from "./meeting-room.ts";
import { bookingFor, replyAsOf, runOnBooking, type BookingRouteDeps } from "./routes.ts";

// Moving a booking (issue 17): the creator asks for another time, the expert accepts or declines,
// the creator may withdraw; and the expert's meeting link. Each is a command on the expert's
// calendar (engine: RequestReschedule, AcceptReschedule, DeclineReschedule, WithdrawReschedule,
// SetJoinLink), which holds the new time beside the old one until the request is answered.

export type RescheduleRouteDeps = Pick<
  BookingRouteDeps,
  "db" | "calendar" | "projected" | "clock" | "creatorBookings" | "meetingRoomUrlTemplate"
>;

const oneBooking = { response: { 200: BookingReply } };

export const rescheduleRoutes: RoutePlugin<RescheduleRouteDeps> = async (app, deps) => {
  const { db, clock, creatorBookings, meetingRoomUrlTemplate } = deps;
  const replyOf = (row: Parameters<typeof replyAsOf>[0]) => replyAsOf(row, clock(), meetingRoomUrlTemplate);

  app.post(
    "/bookings/:bookingId/reschedule",
    { onRequest: requireActor(), schema: { params: BookingIdParams, body: RescheduleBody, ...oneBooking } },
    async (request) => {
      const actor = actorOf(request);
      const row = await bookingFor(db, actor, request.params.bookingId);
      // The creator's sessions with every expert are facts here as for a booking request: read, and
      // the move written and shown, under the creator's lock, so no request of theirs decides on stale facts.
      const moved = await creatorBookings.run(row.creator_id, async (client) =>
        runOnBooking(deps, actor, row, {
          type: "RequestReschedule",
          scheduledTime: request.body.scheduled_time,
          creatorBookings: await creatorBookingFacts(client, row.creator_id, clock()),
        }),
      );
      return replyOf(moved);
    },
  );

  const answer = (type: "AcceptReschedule" | "WithdrawReschedule", path: string) =>
    app.post(path, { onRequest: requireActor(), schema: { params: BookingIdParams, ...oneBooking } }, async (request) => {
      const actor = actorOf(request);
      // Accepting the creator's answer to a proposed time confirms the booking: its room is drawn here, as for ConfirmBooking.
      const command = type === "AcceptReschedule" ? { type, meetingRoom: newMeetingRoom() } : { type };
      return replyOf(await runOnBooking(deps, actor, await bookingFor(db, actor, request.params.bookingId), command));
    });
  answer("AcceptReschedule", "/bookings/:bookingId/reschedule/accept");
  answer("WithdrawReschedule", "/bookings/:bookingId/reschedule/withdraw");

  app.post(
    "/bookings/:bookingId/reschedule/decline",
    { onRequest: requireActor(), schema: { params: BookingIdParams, body: RescheduleDeclineBody.nullish(), ...oneBooking } },
    async (request) => {
      const actor = actorOf(request);
      return replyOf(
        await runOnBooking(deps, actor, await bookingFor(db, actor, request.params.bookingId), {
          type: "DeclineReschedule",
          reason: request.body?.reason ?? "",
        }),
      );
    },
  );

  app.put(
    "/bookings/:bookingId/join-link",
    { onRequest: requireActor(), schema: { params: BookingIdParams, body: JoinLinkBody, response: { 200: JoinLinkReply } } },
    async (request) => {
      const actor = actorOf(request);
      const row = await runOnBooking(deps, actor, await bookingFor(db, actor, request.params.bookingId), {
        type: "SetJoinLink",
        url: request.body.url,
      });
      // The expert sees the link they set at once; the parties' replies show it from shortly before the start.
      return { booking_id: row.booking_id, url: row.join_link ?? request.body.url, opens_at: joinLinkOpensAt(row.scheduled_time) };
    },
  );
};
