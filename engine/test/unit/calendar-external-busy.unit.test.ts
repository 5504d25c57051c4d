import { describe, expect, it } from "vitest";
import { MAX_BUSY_TIMES_PER_CALENDAR, type BusyInterval, type CalendarCommand, type CalendarEvent } from "@booking/contracts";
import { bookableStarts } from "../../src/availability/availability.ts";
import { calendarDayAsOf } from "../../src/calendar/calendar-as-of.ts";
import { decodeCalendar, encodeCalendar } from "../../src/calendar/calendar-snapshot.ts";
import { bookingsInExternalBusy, busyPeriods, calendarDecider, expertHours } from "../../src/calendar/calendar.ts";
import { deciderSpec } from "./decider-spec.ts";
import { CREATOR, EXPERT, EXPERT_ID, NOW, SYSTEM, T1, bookingIn, commands, requestBooking, scheduleSet } from "./calendar-fixtures.ts";

// Issue 32: busy times of the expert's connected calendars, on the calendar stream. The fixtures'
// expert works 09:00-17:00 every day in London (GMT in early March); NOW is Monday 2 March 08:00
// and booking b1 is Tuesday 3 March 10:00-11:00 (T1).

const spec = deciderSpec(calendarDecider, NOW);
const WINDOW = { from: NOW, to: "2026-03-31T08:00:00.000Z" };

/** Wednesday 4 March, 13:00-14:30 London (GMT): a dentist appointment in the expert's Google calendar. */
const dentist: BusyInterval = { start: "2026-03-04T13:00:00.000Z", end: "2026-03-04T14:30:00.000Z" };
const sync = (busy: BusyInterval[], sourceId = "google", actor = SYSTEM): CalendarCommand => ({
  type: "SyncExternalBusyTimes",
  expertId: EXPERT_ID,
  actor,
  sourceId,
  ...WINDOW,
  busy,
});
const synced = (busy: BusyInterval[], sourceId = "google"): CalendarEvent => ({
  type: "ExternalBusyTimesSynced",
  data: { expertId: EXPERT_ID, sourceId, ...WINDOW, busy },
});
const stateOf = (events: CalendarEvent[]) => calendarDecider.evolve(calendarDecider.initialState(), events);
const wednesdayStarts = (events: CalendarEvent[]) => {
  const state = stateOf(events);
  return bookableStarts({
    ...expertHours(state)!,
    lengthMinutes: 60,
    busy: busyPeriods(state, NOW),
    now: NOW,
    from: "2026-03-04T09:00:00.000Z",
    to: "2026-03-04T16:00:00.000Z",
  }).map((t) => t.slice(11, 16));
};

describe("recording a connected calendar's busy times", () => {
  it("a sync records the calendar's busy times, earliest first, as UTC instants", () => {
    const later = { start: "2026-03-05T10:00:00+00:00", end: "2026-03-05T11:00:00Z" };
    spec([scheduleSet])
      .when(sync([later, dentist]))
      .then([synced([dentist, { start: "2026-03-05T10:00:00.000Z", end: "2026-03-05T11:00:00.000Z" }])]);
  });
  it("a sync that finds the same busy times records nothing (a calendar read every few minutes does not grow the stream)", () => {
    spec([scheduleSet, synced([dentist])])
      .when(sync([dentist]))
      .then([]);
  });
  it("a sync replaces that calendar's previous set, and leaves other calendars' alone", () => {
    const state = stateOf([scheduleSet, synced([dentist]), synced([dentist], "work"), synced([])]);
    expect([...state.externalBusy]).toEqual([
      ["google", []],
      ["work", [dentist]],
    ]);
  });
  it("disconnecting removes the calendar's busy times; removing what is not there changes nothing", () => {
    const remove: CalendarCommand = { type: "RemoveExternalBusyTimes", expertId: EXPERT_ID, actor: EXPERT, sourceId: "google" };
    spec([scheduleSet, synced([dentist])])
      .when(remove)
      .then([{ type: "ExternalBusyTimesRemoved", data: { expertId: EXPERT_ID, sourceId: "google" } }]);
    spec([scheduleSet]).when(remove).then([]);
  });
  it(`refuses more than ${MAX_BUSY_TIMES_PER_CALENDAR} busy times for one calendar, with the catalogue's message`, () => {
    const many = Array.from({ length: MAX_BUSY_TIMES_PER_CALENDAR + 1 }, (_, i) => ({
      start: new Date(Date.parse(NOW) + i * 600_000).toISOString(),
      end: new Date(Date.parse(NOW) + i * 600_000 + 300_000).toISOString(),
    }));
    spec([scheduleSet])
      .when(sync(many))
      .thenRefused(
        "calendar_too_many_busy_times",
        "That calendar has more than 5,000 busy times in the next four weeks. Please connect a calendar with fewer events.",
      );
  });
  it("refuses before a schedule names the expert's zone (all-day and floating events are read in it)", () => {
    spec([])
      .when(sync([dentist]))
      .thenRefused("calendar_schedule_first");
  });
  it("a creator cannot record busy times on an expert's calendar", () => {
    spec([scheduleSet])
      .when(sync([dentist], "google", CREATOR))
      .thenRefused("forbidden");
  });
});

describe("the booking rules see them (clearOfExternalBusy)", () => {
  it("availability offers no time that meets a busy time, and offers it again once the calendar is disconnected", () => {
    expect(wednesdayStarts([scheduleSet])).toEqual([
      "09:00",
      "09:30",
      "10:00",
      "10:30",
      "11:00",
      "11:30",
      "12:00",
      "12:30",
      "13:00",
      "13:30",
      "14:00",
      "14:30",
      "15:00",
      "15:30",
      "16:00",
    ]);
    // 12:00-13:00 ends as the dentist starts; 14:30 starts as it ends.
    expect(wednesdayStarts([scheduleSet, synced([dentist])])).toEqual([
      "09:00",
      "09:30",
      "10:00",
      "10:30",
      "11:00",
      "11:30",
      "12:00",
      "14:30",
      "15:00",
      "15:30",
      "16:00",
    ]);
    const removed: CalendarEvent = { type: "ExternalBusyTimesRemoved", data: { expertId: EXPERT_ID, sourceId: "google" } };
    expect(wednesdayStarts([scheduleSet, synced([dentist]), removed])).toHaveLength(15);
  });
  it("the expert's buffers keep clear of busy times too", () => {
    const buffers: CalendarEvent = {
      type: "BookingRulesSet",
      data: { expertId: EXPERT_ID, bufferBeforeMinutes: 15, bufferAfterMinutes: 30, minNoticeHours: 0 },
    };
    // 11:00-12:00 + 30 min after runs into 13:00? No: it ends 12:30. 11:30 + 30 after = 13:00: touches, allowed.
    // 12:00 + after-buffer ends 13:30: refused. 14:30 - 15 min before = 14:15: inside the dentist: refused; 15:00 is clear.
    expect(wednesdayStarts([scheduleSet, buffers, synced([dentist])])).toEqual([
      "09:00",
      "09:30",
      "10:00",
      "10:30",
      "11:00",
      "11:30",
      "15:00",
      "15:30",
      "16:00",
    ]);
  });
  it("a booking request inside a busy time is refused as unavailable", () => {
    spec([scheduleSet, synced([dentist])])
      .when(requestBooking({ scheduledTime: "2026-03-04T13:30:00.000Z" }))
      .thenRefused("slot_unavailable");
    expect(spec([scheduleSet, synced([dentist])]).when(requestBooking({ scheduledTime: "2026-03-04T14:30:00.000Z" })).result.ok).toBe(true);
  });
  it("a time the expert proposes inside one is refused with a reason", () => {
    const busyThursday = synced([{ start: "2026-03-05T14:00:00.000Z", end: "2026-03-05T15:00:00.000Z" }]);
    spec([...bookingIn("pending"), busyThursday])
      .when(commands.proposeTime(EXPERT, "2026-03-05T14:30:00.000Z"))
      .thenRefused("proposed_time_in_own_calendar", "That time is busy in your own calendar. Please propose another time.");
  });
  it("a request to move a booking into one is refused", () => {
    const busyThursday = synced([{ start: "2026-03-05T14:00:00.000Z", end: "2026-03-05T15:00:00.000Z" }]);
    const move: CalendarCommand = {
      type: "RequestReschedule",
      expertId: EXPERT_ID,
      bookingId: "b1",
      actor: CREATOR,
      scheduledTime: "2026-03-05T14:30:00.000Z",
      creatorBookings: [],
    };
    expect(spec([...bookingIn("confirmed"), busyThursday]).when(move).result.ok).toBe(false);
    expect(spec([...bookingIn("confirmed")]).when(move).result.ok).toBe(true);
  });
});

describe("bookings already inside a new busy time are listed, never dropped", () => {
  it("a sync over a confirmed booking is recorded, the booking stays confirmed and is listed with the calendar", () => {
    const overT1 = { start: "2026-03-03T10:30:00.000Z", end: "2026-03-03T12:00:00.000Z" };
    const given = [...bookingIn("confirmed")];
    spec(given)
      .when(sync([overT1]))
      .then([synced([overT1])]);
    const state = stateOf([...given, synced([overT1]), synced([], "work")]);
    expect(state.bookings.get("b1")!.status).toBe("confirmed");
    expect(bookingsInExternalBusy(state, NOW).map((f) => [f.booking.bookingId, f.booking.scheduledTime, f.sourceIds])).toEqual([
      ["b1", T1, ["google"]],
    ]);
  });
  it("a busy time that only touches the booking, or a booking that has ended, is not listed", () => {
    const touching = synced([{ start: "2026-03-03T11:00:00.000Z", end: "2026-03-03T12:00:00.000Z" }]);
    expect(bookingsInExternalBusy(stateOf([...bookingIn("confirmed"), touching]), NOW)).toEqual([]);
    const overT1 = synced([{ start: "2026-03-03T10:30:00.000Z", end: "2026-03-03T12:00:00.000Z" }]);
    expect(bookingsInExternalBusy(stateOf([...bookingIn("cancelled"), overT1]), NOW)).toEqual([]);
    expect(bookingsInExternalBusy(stateOf([...bookingIn("confirmed"), overT1]), "2026-03-03T11:00:00.000Z")).toEqual([]);
  });
});

describe("time travel and snapshots keep them", () => {
  it("the day as it stood shows the busy times the decision saw, and fewer bookable times", () => {
    const day = calendarDayAsOf(stateOf([scheduleSet, synced([dentist])]), NOW, "2026-03-04", 60);
    expect(day.externalBusy).toEqual([{ sourceId: "google", ...dentist }]);
    expect(day.bookable.map((t) => t.slice(11, 16))).not.toContain("13:00");
  });
  it("a snapshot round-trips them", () => {
    const state = stateOf([scheduleSet, synced([dentist]), synced([], "work")]);
    expect([...decodeCalendar(JSON.parse(JSON.stringify(encodeCalendar(state, NOW)))).externalBusy]).toEqual([...state.externalBusy]);
  });
});
