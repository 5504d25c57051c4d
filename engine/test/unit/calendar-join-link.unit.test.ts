import { describe, expect, it } from "vitest";
import { BookingStatus, JOIN_LINK_OPENS_MINUTES_BEFORE, type Actor, type CalendarCommand, type CalendarEvent } from "@booking/contracts";
import { calendarDecider } from "../../src/calendar/calendar.ts";
import { joinLinkView, meetingLinkOf, type JoinLinkFacts } from "../../src/calendar/join-link.ts";
import { deciderSpec } from "./decider-spec.ts";
import { ADMIN, BOOKING, CREATOR, EXPERT, EXPERT_ID, NOW, OTHER_EXPERT, T1, bookingIn } from "./calendar-fixtures.ts";

// Issue 17 item 6: the expert sets a video meeting link on a confirmed booking (or a room is
// generated from the deployment's template); both parties see it from 15 minutes before the start.

const spec = deciderSpec(calendarDecider, NOW);
const LINK = "https://meet.example.com/abc-defg-hij";
const setLink = (url = LINK, actor: Actor = EXPERT): CalendarCommand => ({
  type: "SetJoinLink",
  expertId: EXPERT_ID,
  bookingId: BOOKING,
  actor,
  url,
});
const linkSet = (url = LINK, by: "expert" | "admin" = "expert"): CalendarEvent => ({
  type: "JoinLinkSet",
  data: { bookingId: BOOKING, url, by },
});

describe("setting the meeting link", () => {
  it("the expert sets it on a confirmed booking; an admin may for them", () => {
    spec(bookingIn("confirmed")).when(setLink()).then([linkSet()]);
    spec(bookingIn("confirmed"))
      .when(setLink(LINK, ADMIN))
      .then([linkSet(LINK, "admin")]);
  });
  it("setting the same link again changes nothing; another link replaces it", () => {
    spec([...bookingIn("confirmed"), linkSet()])
      .when(setLink())
      .then([]);
    spec([...bookingIn("confirmed"), linkSet()])
      .when(setLink("https://zoom.example.com/j/1"))
      .then([linkSet("https://zoom.example.com/j/1")]);
  });
  it("the creator cannot set it, nor can another expert", () => {
    spec(bookingIn("confirmed"))
      .when(setLink(LINK, CREATOR))
      .thenRefused("join_link_expert_only", "Only the expert of this booking can set its meeting link.");
    spec(bookingIn("confirmed")).when(setLink(LINK, OTHER_EXPERT)).thenRefused("not_booking_party");
  });
  for (const status of BookingStatus.options.filter((s) => s !== "confirmed")) {
    it(`is refused on a ${status} booking`, () => {
      spec(bookingIn(status))
        .when(setLink())
        .thenRefused("join_link_not_confirmed", "A meeting link can be set once the booking is confirmed.");
    });
  }
  it("takes https links of a host only, even from a caller past the boundary", () => {
    for (const url of [
      "http://meet.example.com/x",
      "javascript:alert(1)",
      "https://user:pw@meet.example.com/x",
      "https://meet.example.com/a b",
      "meet.example.com/x",
      `https://meet.example.com/${"x".repeat(2000)}`,
    ])
      spec(bookingIn("confirmed"))
        .when(setLink(url))
        .thenRefused("join_link_invalid", "Please enter a meeting link that starts with https://, without spaces.");
  });
});

describe("when both parties see it", () => {
  const booking: JoinLinkFacts = { bookingId: BOOKING, status: "confirmed", scheduledTime: T1, joinLink: LINK };
  const opensAt = "2026-03-03T09:45:00.000Z";
  const TEMPLATE = "https://rooms.example.com/{bookingId}";
  it(`shows from ${JOIN_LINK_OPENS_MINUTES_BEFORE} minutes before the start; before that only when it will`, () => {
    expect(joinLinkView(booking, "2026-03-03T09:44:59.999Z", null)).toEqual({ url: null, opensAt, source: "expert" });
    expect(joinLinkView(booking, opensAt, null)).toEqual({ url: LINK, opensAt, source: "expert" });
    expect(joinLinkView(booking, "2026-03-03T10:30:00.000Z", null)).toEqual({ url: LINK, opensAt, source: "expert" });
  });
  it("without the expert's link a room is generated from the template, one per booking; without a template there is none", () => {
    const none = { ...booking, joinLink: null };
    expect(joinLinkView(none, opensAt, TEMPLATE)).toEqual({ url: "https://rooms.example.com/b1", opensAt, source: "generated" });
    expect(meetingLinkOf({ ...none, bookingId: "a b/c" }, TEMPLATE)?.url).toBe("https://rooms.example.com/a%20b%2Fc");
    expect(joinLinkView(none, opensAt, null)).toEqual({ url: null, opensAt: null, source: null });
    // The expert's own link wins over the generated room.
    expect(joinLinkView(booking, opensAt, TEMPLATE).url).toBe(LINK);
  });
  it("only a confirmed booking has one", () => {
    for (const status of BookingStatus.options.filter((s) => s !== "confirmed"))
      expect(joinLinkView({ ...booking, status }, opensAt, TEMPLATE)).toEqual({ url: null, opensAt: null, source: null });
  });
  it("follows the booking when it moves", () => {
    const state = calendarDecider.evolve(calendarDecider.initialState(), [
      ...bookingIn("confirmed"),
      linkSet(),
      { type: "RescheduleRequested", data: { bookingId: BOOKING, from: T1, to: "2026-03-04T13:00:00.000Z", by: "creator" } },
      { type: "RescheduleAccepted", data: { bookingId: BOOKING, from: T1, to: "2026-03-04T13:00:00.000Z", by: "expert" } },
    ]);
    const b = state.bookings.get(BOOKING)!;
    expect(joinLinkView(b, opensAt, null)).toEqual({ url: null, opensAt: "2026-03-04T12:45:00.000Z", source: "expert" });
  });
});
