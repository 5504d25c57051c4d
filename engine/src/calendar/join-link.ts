import { JOIN_LINK_OPENS_MINUTES_BEFORE, type BookingStatus } from "@booking/contracts";

// Where a confirmed booking's video call happens, and when its parties see it. Pure: the clock and
// the deployment's room template come in as arguments.

/** What of a booking the join link rules read. */
export type JoinLinkFacts = {
  bookingId: string;
  status: BookingStatus;
  scheduledTime: string;
  joinLink: string | null;
  /** The room its confirmation recorded (absent or null: none). */ meetingRoom?: string | null;
};

/** A booking's meeting link and where it came from: the expert set it, or a room was generated from the template. */
export type JoinLink = { url: string; source: "expert" | "generated" };

/**
 * `{room}` in the template is the room name the booking's confirmation recorded (random, so nobody
 * guesses a room; a booking confirmed before rooms were recorded uses its id), `{bookingId}` its id.
 */
export const roomLinkOf = (template: string, bookingId: string, room: string | null = null): string =>
  template.replaceAll("{room}", encodeURIComponent(room ?? bookingId)).replaceAll("{bookingId}", encodeURIComponent(bookingId));

/**
 * Rule: a confirmed booking meets at the link its expert set, else in a room generated from the
 * deployment's template (no template: no link until the expert sets one). Other bookings have none.
 */
export function meetingLinkOf(b: JoinLinkFacts, roomTemplate: string | null): JoinLink | null {
  if (b.status !== "confirmed") return null;
  if (b.joinLink) return { url: b.joinLink, source: "expert" };
  return roomTemplate ? { url: roomLinkOf(roomTemplate, b.bookingId, b.meetingRoom ?? null), source: "generated" } : null;
}

/** Rule: both parties see the link from JOIN_LINK_OPENS_MINUTES_BEFORE minutes before the start. */
export const joinLinkOpensAt = (scheduledTime: string): string =>
  new Date(Date.parse(scheduledTime) - JOIN_LINK_OPENS_MINUTES_BEFORE * 60_000).toISOString();

/** What a booking's reply shows of its link: the link once it shows (else null), when it shows, and where it came from. */
export type JoinLinkView = { url: string | null; opensAt: string | null; source: JoinLink["source"] | null };

export function joinLinkView(b: JoinLinkFacts, now: string, roomTemplate: string | null): JoinLinkView {
  const link = meetingLinkOf(b, roomTemplate);
  if (!link) return { url: null, opensAt: null, source: null };
  const opensAt = joinLinkOpensAt(b.scheduledTime);
  return { url: Date.parse(now) >= Date.parse(opensAt) ? link.url : null, opensAt, source: link.source };
}
