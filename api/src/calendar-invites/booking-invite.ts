import { meetingLinkOf } from "@booking/engine";
import type { BookingInviteFacts, joinLinksOf } from "@booking/projections";
import type { BookingInvite } from "./ics.ts";

// A booking as a calendar entry shows it, for one of its parties: the download, the feed and the
// copy written into the expert's own CalDAV calendar (issue 32) all read it from here.

/** Each booking's link the expert set and room its confirmation recorded (joinLinksOf). */
export type JoinLinks = Awaited<ReturnType<typeof joinLinksOf>>;

export type InviteSettings = {
  /** Where booking links point. */
  publicUrl: string;
  /** MEETING_ROOM_URL_TEMPLATE: the generated room of a booking whose expert set no link (null: none). */
  meetingRoomUrlTemplate: string | null;
};

/**
 * The meeting link goes in the calendar entry as soon as there is one, though the app shows it
 * only from 15 minutes before the start: a calendar fetches the file days ahead and an entry
 * without the link is no use at the meeting (Calendly puts it in the invite too). The file and the
 * feed reach only the booking's parties, as the app does.
 */
function joinLinkOf(b: BookingInviteFacts, expertLinks: JoinLinks, meetingRoomUrlTemplate: string | null): string | null {
  const { joinLink = null, meetingRoom = null } = expertLinks.get(b.booking_id) ?? {};
  return (
    meetingLinkOf(
      { bookingId: b.booking_id, status: b.status, scheduledTime: b.scheduled_time, joinLink, meetingRoom },
      meetingRoomUrlTemplate,
    )?.url ?? null
  );
}

export const bookingInvite = (
  b: BookingInviteFacts,
  forUserId: string,
  expertLinks: JoinLinks,
  settings: InviteSettings,
): BookingInvite => ({
  bookingId: b.booking_id,
  sequence: b.stream_version,
  status: b.status === "cancelled" ? "cancelled" : "confirmed",
  start: b.scheduled_time,
  end: new Date(Date.parse(b.scheduled_time) + b.length_minutes * 60_000).toISOString(),
  title: b.session_title,
  // Names only: a download or a feed gives nobody the other party's sign-in address.
  expert: { name: b.expert_name ?? "Your expert" },
  creator: { name: b.creator_name ?? "Creator" },
  expertTimezone: b.expert_timezone,
  // The screen where each party sees the booking.
  url: `${settings.publicUrl}/${forUserId === b.expert_user_id ? "manage-booking" : "session-details"}/${b.booking_id}`,
  joinLink: joinLinkOf(b, expertLinks, settings.meetingRoomUrlTemplate),
  updatedAt: b.updated_at,
});
