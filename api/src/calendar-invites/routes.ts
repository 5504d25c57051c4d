import type pg from "pg";
import { BookingIdParams, CalendarFeedParams, CalendarFeedReply } from "@booking/contracts";
import { bookingInviteFacts, confirmedBookingInvitesOf, joinLinksOf, type BookingInviteFacts } from "@booking/projections";
import { actorOf, requireActor, refuse } from "../http/index.ts";
import type { RoutePlugin } from "../http/index.ts";
import type { MailSettings } from "../mail/index.ts";
import { feedOwner, feedToken, regenerateFeedToken } from "./feed.ts";
import { bookingInvite, type JoinLinks } from "./booking-invite.ts";
import { calendarText } from "./ics.ts";

// "Add to calendar" for one booking, and each user's personal feed that calendar apps subscribe to.

export type CalendarInviteRouteDeps = {
  /** The bookings, users, experts and schedules read models, and the feed generations. */
  db: pg.Pool;
  /** Signs feed addresses (the JWT secret; a key of its own is derived from it). */
  jwtSecret: string;
  /** Where booking links point and what host names the invites' UIDs. */
  mail: Pick<MailSettings, "publicUrl">;
  clock: () => string;
  /** MEETING_ROOM_URL_TEMPLATE: the generated room of a booking whose expert set no link (null: none). */
  meetingRoomUrlTemplate: string | null;
};

/** How far back a feed keeps confirmed bookings: calendars drop an entry the feed no longer lists. */
const FEED_KEEPS_PAST_MS = 30 * 24 * 60 * 60 * 1000;

const ICS_TYPE = "text/calendar; charset=utf-8";

export const calendarInviteRoutes: RoutePlugin<CalendarInviteRouteDeps> = async (
  app,
  { db, jwtSecret, mail, clock, meetingRoomUrlTemplate },
) => {
  const host = new URL(mail.publicUrl).host;

  const inviteOf = (b: BookingInviteFacts, forUserId: string, expertLinks: JoinLinks) =>
    bookingInvite(b, forUserId, expertLinks, { publicUrl: mail.publicUrl, meetingRoomUrlTemplate });

  const feedReply = (token: string): CalendarFeedReply => {
    const https = `${mail.publicUrl}/api/v1/calendar/${token}.ics`;
    return { webcal_url: https.replace(/^https?:/, "webcal:"), https_url: https };
  };

  app.get(
    "/bookings/:bookingId/calendar.ics",
    { onRequest: requireActor(), schema: { params: BookingIdParams } },
    async (request, reply) => {
      const actor = actorOf(request);
      const booking = await bookingInviteFacts(db, request.params.bookingId);
      // As GET /bookings/:id: anyone outside the booking learns nothing of it.
      if (!booking || (actor.role !== "admin" && actor.userId !== booking.creator_id && actor.userId !== booking.expert_user_id))
        refuse("booking_not_found");
      // A cancelled booking's file marks the entry an earlier file added cancelled; one not confirmed has no time to hold yet.
      if (booking.status !== "confirmed" && booking.status !== "completed" && booking.status !== "cancelled")
        refuse("calendar_invite_not_confirmed");
      // A download is published, not an invitation (REQUEST and CANCEL are for mail, with addresses).
      return reply
        .type(ICS_TYPE)
        .header("content-disposition", `attachment; filename="booking-${booking.booking_id}.ics"`)
        .header("cache-control", "private, no-store")
        .send(
          calendarText({
            method: "PUBLISH",
            host,
            invites: [inviteOf(booking, actor.userId, await joinLinksOf(db, [booking.booking_id]))],
          }),
        );
    },
  );

  app.get("/calendar/feed", { onRequest: requireActor(), schema: { response: { 200: CalendarFeedReply } } }, async (request) =>
    feedReply(await feedToken(db, jwtSecret, actorOf(request).userId)),
  );

  app.post("/calendar/feed/regenerate", { onRequest: requireActor(), schema: { response: { 200: CalendarFeedReply } } }, async (request) =>
    feedReply(await regenerateFeedToken(db, jwtSecret, actorOf(request).userId, clock())),
  );

  // Calendar apps cannot sign in: the address itself is the key.
  app.get("/calendar/:file", { schema: { params: CalendarFeedParams } }, async (request, reply) => {
    const owner = await feedOwner(db, jwtSecret, request.params.file.replace(/\.ics$/, ""));
    if (!owner) refuse("calendar_feed_not_found");
    const from = new Date(Date.parse(clock()) - FEED_KEEPS_PAST_MS).toISOString();
    const bookings = await confirmedBookingInvitesOf(db, owner, from);
    const expertLinks = await joinLinksOf(
      db,
      bookings.map((b) => b.booking_id),
    );
    return reply
      .type(ICS_TYPE)
      .header("cache-control", "private, no-store")
      .send(
        calendarText({ method: "PUBLISH", host, name: "Expert sessions", invites: bookings.map((b) => inviteOf(b, owner, expertLinks)) }),
      );
  });
};
