import { describe, expect, it } from "vitest";
import {
  MAX_UPCOMING_DATE_OVERRIDES,
  MAX_UPCOMING_TIME_OFF,
  type BookingRules,
  type CalendarCommand,
  type CalendarEvent,
  type DateOverride,
  type TimeOff,
} from "@booking/contracts";
import { bookableStarts } from "../../src/availability/availability.ts";
import { bookingsInTimeOff, busyPeriods, calendarDecider, expertHours } from "../../src/calendar/calendar.ts";
import { deciderSpec } from "./decider-spec.ts";
import {
  ADMIN,
  BOOKING,
  CREATOR,
  EXPERT,
  EXPERT_ID,
  NOW,
  OTHER_CREATOR,
  T1,
  bookingIn,
  commands,
  paid,
  requestBooking,
  requested,
  scheduleSet,
} from "./calendar-fixtures.ts";

// Issue 17: time off, extra hours on a date, buffers and minimum notice on the calendar stream.
// The fixtures' expert works 09:00-17:00 every day in London (GMT until 29 March); NOW is Monday
// 2 March 08:00 and booking b1 is Tuesday 3 March 10:00-11:00 (T1).

const spec = deciderSpec(calendarDecider, NOW);
const base = { expertId: EXPERT_ID, actor: EXPERT };

const tuesdayOff: TimeOff = { timeOffId: "off1", start: "2026-03-03T00:00", end: "2026-03-04T00:00", reason: "Dentist" };
const addTimeOff = (timeOff: TimeOff = tuesdayOff, actor = EXPERT): CalendarCommand => ({ type: "AddTimeOff", ...base, actor, timeOff });
const timeOffAdded = (t: TimeOff = tuesdayOff): CalendarEvent => ({ type: "TimeOffAdded", data: { expertId: EXPERT_ID, ...t } });

const wednesdayEvening: DateOverride = { overrideId: "x1", date: "2026-03-04", start_local: "17:00", end_local: "20:00" };
const addOverride = (override: DateOverride = wednesdayEvening, actor = EXPERT): CalendarCommand => ({
  type: "AddDateOverride",
  ...base,
  actor,
  override,
});
const overrideAdded = (o: DateOverride = wednesdayEvening): CalendarEvent => ({
  type: "DateOverrideAdded",
  data: { expertId: EXPERT_ID, ...o },
});

const rules = (over: Partial<BookingRules>): BookingRules => ({
  bufferBeforeMinutes: 0,
  bufferAfterMinutes: 0,
  minNoticeHours: 0,
  ...over,
});
const setRules = (r: BookingRules, actor = EXPERT): CalendarCommand => ({ type: "SetBookingRules", ...base, actor, rules: r });
const rulesSet = (r: BookingRules): CalendarEvent => ({ type: "BookingRulesSet", data: { expertId: EXPERT_ID, ...r } });

const stateOf = (events: CalendarEvent[]) => calendarDecider.evolve(calendarDecider.initialState(), events);
const accepted = (given: CalendarEvent[], c: CalendarCommand, now = NOW) => spec(given).when(c, now).result.ok;

describe("time off", () => {
  it("an expert adds time off in their timezone", () => {
    spec([scheduleSet]).when(addTimeOff()).then([timeOffAdded()]);
  });
  it("adding the same time off again (a retried request) changes nothing", () => {
    spec([scheduleSet, timeOffAdded()]).when(addTimeOff()).then([]);
  });
  it("refuses the same id for a different period", () => {
    spec([scheduleSet, timeOffAdded()])
      .when(addTimeOff({ ...tuesdayOff, end: "2026-03-05T00:00" }))
      .thenRefused("time_off_id_taken", "This time off id is already used for a different period.");
  });
  it("refuses before a schedule names the expert's timezone", () => {
    spec([])
      .when(addTimeOff())
      .thenRefused(
        "schedule_first",
        "Set your weekly hours and timezone first: time off, extra hours and booking rules apply in your timezone.",
      );
  });
  it("refuses a creator; an admin may act for the expert", () => {
    spec([scheduleSet]).when(addTimeOff(tuesdayOff, CREATOR)).thenRefused("forbidden");
    spec([scheduleSet]).when(addTimeOff(tuesdayOff, ADMIN)).then([timeOffAdded()]);
  });
  it("refuses an end not after the start even if the boundary let it by", () => {
    spec([scheduleSet])
      .when(addTimeOff({ ...tuesdayOff, end: tuesdayOff.start }))
      .thenRefused("time_off_range_invalid");
  });
  it(`keeps at most ${MAX_UPCOMING_TIME_OFF} upcoming periods; ended ones do not count`, () => {
    const upcoming = Array.from({ length: MAX_UPCOMING_TIME_OFF }, (_, i) =>
      timeOffAdded({ timeOffId: `u${i}`, start: "2026-04-01T09:00", end: "2026-04-01T10:00", reason: "" }),
    );
    const ended = timeOffAdded({ timeOffId: "past", start: "2026-02-01T09:00", end: "2026-02-01T10:00", reason: "" });
    const next = addTimeOff({ ...tuesdayOff, timeOffId: "one-more" });
    spec([scheduleSet, ...upcoming])
      .when(next)
      .thenRefused(
        "time_off_limit",
        `You can have at most ${MAX_UPCOMING_TIME_OFF} upcoming periods of time off. Remove one before adding another.`,
      );
    expect(accepted([scheduleSet, ...upcoming.slice(1), ended], next)).toBe(true);
  });
  it("is removed by id; an unknown id is refused", () => {
    spec([scheduleSet, timeOffAdded()])
      .when({ type: "RemoveTimeOff", ...base, timeOffId: "off1" })
      .then([{ type: "TimeOffRemoved", data: { expertId: EXPERT_ID, timeOffId: "off1" } }]);
    spec([scheduleSet, timeOffAdded()])
      .when({ type: "RemoveTimeOff", ...base, timeOffId: "nope" })
      .thenRefused("time_off_not_found", "No time off found.");
  });

  it("refuses a booking inside it, takes the same time once it is removed", () => {
    const wholeTuesday = [scheduleSet, timeOffAdded()];
    spec(wholeTuesday)
      .when(requestBooking({ scheduledTime: T1 }))
      .thenRefused("slot_unavailable");
    const removed: CalendarEvent = { type: "TimeOffRemoved", data: { expertId: EXPERT_ID, timeOffId: "off1" } };
    expect(accepted([...wholeTuesday, removed], requestBooking({ scheduledTime: T1 }))).toBe(true);
  });
  it("hours of time off block only the sessions that touch them", () => {
    const afternoon = [scheduleSet, timeOffAdded({ timeOffId: "pm", start: "2026-03-03T13:00", end: "2026-03-03T15:30", reason: "" })];
    spec(afternoon)
      .when(requestBooking({ scheduledTime: "2026-03-03T12:30:00.000Z" }))
      .thenRefused("slot_unavailable"); // 12:30-13:30 runs into it
    spec(afternoon)
      .when(requestBooking({ scheduledTime: "2026-03-03T15:00:00.000Z" }))
      .thenRefused("slot_unavailable");
    expect(accepted(afternoon, requestBooking({ scheduledTime: "2026-03-03T12:00:00.000Z" }))).toBe(true); // ends as it starts
    expect(accepted(afternoon, requestBooking({ scheduledTime: "2026-03-03T15:30:00.000Z" }))).toBe(true); // starts as it ends
  });
  it("reads the expert's wall clock: after a move to New York the same local hours are blocked there", () => {
    const newYork: CalendarEvent = { ...scheduleSet, data: { ...scheduleSet.data, timezone: "America/New_York" } };
    const given = [newYork, timeOffAdded({ timeOffId: "am", start: "2026-03-04T09:00", end: "2026-03-04T12:00", reason: "" })];
    spec(given)
      .when(requestBooking({ scheduledTime: "2026-03-04T14:00:00.000Z" }))
      .thenRefused("slot_unavailable"); // 09:00 EST
    expect(accepted(given, requestBooking({ scheduledTime: "2026-03-04T17:00:00.000Z" }))).toBe(true); // 12:00 EST
  });
  it("a time the expert proposes inside it is refused with a reason", () => {
    const given = [
      ...bookingIn("pending"),
      timeOffAdded({ timeOffId: "thu", start: "2026-03-05T00:00", end: "2026-03-06T00:00", reason: "" }),
    ];
    spec(given)
      .when(commands.proposeTime(EXPERT, "2026-03-05T14:30:00.000Z"))
      .thenRefused("proposed_time_in_time_off", "That time falls in your time off. Please propose another time.");
    expect(accepted(given, commands.proposeTime(EXPERT, "2026-03-06T14:30:00.000Z"))).toBe(true);
  });
});

describe("bookings already in new time off are listed, never dropped", () => {
  it("adding time off over a confirmed booking succeeds, leaves the booking confirmed and lists it", () => {
    const given = bookingIn("confirmed");
    spec(given).when(addTimeOff()).then([timeOffAdded()]);
    const state = stateOf([...given, timeOffAdded()]);
    expect(state.bookings.get(BOOKING)?.status).toBe("confirmed");
    expect(bookingsInTimeOff(state, NOW).map((x) => [x.booking.bookingId, x.timeOffIds])).toEqual([[BOOKING, ["off1"]]]);
  });
  it("lists every booking that still holds its time, earliest first, with each time off it falls in", () => {
    const given = [
      ...bookingIn("pending"),
      requested("b3", "2026-03-03T15:00:00.000Z", OTHER_CREATOR.userId),
      paid("b3", "pi_3"),
      requested("b4", "2026-03-03T09:00:00.000Z", OTHER_CREATOR.userId),
      paid("b4", "pi_4"),
      requested("b5", "2026-03-04T09:00:00.000Z", OTHER_CREATOR.userId), // Wednesday: outside
      timeOffAdded(),
      timeOffAdded({ timeOffId: "pm", start: "2026-03-03T14:00", end: "2026-03-03T18:00", reason: "" }),
    ];
    expect(bookingsInTimeOff(stateOf(given), NOW).map((x) => [x.booking.bookingId, x.timeOffIds])).toEqual([
      ["b4", ["off1"]],
      [BOOKING, ["off1"]],
      ["b3", ["off1", "pm"]],
    ]);
  });
  it("leaves out cancelled bookings, expired holds and sessions already over", () => {
    expect(bookingsInTimeOff(stateOf([...bookingIn("cancelled"), timeOffAdded()]), NOW)).toEqual([]);
    expect(bookingsInTimeOff(stateOf([...bookingIn("pending", false), timeOffAdded()]), "2026-03-02T08:15:00.000Z")).toEqual([]);
    expect(bookingsInTimeOff(stateOf([...bookingIn("confirmed"), timeOffAdded()]), "2026-03-03T11:00:00.000Z")).toEqual([]);
    expect(bookingsInTimeOff(stateOf([...bookingIn("confirmed"), timeOffAdded()]), "2026-03-03T10:59:00.000Z")).toHaveLength(1);
  });
});

describe("extra hours on a date", () => {
  it("an expert adds hours to one date; adding them again changes nothing", () => {
    spec([scheduleSet]).when(addOverride()).then([overrideAdded()]);
    spec([scheduleSet, overrideAdded()]).when(addOverride()).then([]);
  });
  it("refuses the same id for other hours, hours overlapping others of that date, and before a schedule", () => {
    spec([scheduleSet, overrideAdded()])
      .when(addOverride({ ...wednesdayEvening, end_local: "21:00" }))
      .thenRefused("date_override_id_taken");
    spec([scheduleSet, overrideAdded()])
      .when(addOverride({ overrideId: "x2", date: "2026-03-04", start_local: "19:30", end_local: "21:00" }))
      .thenRefused("date_override_overlap", "These extra hours overlap extra hours you already added on that date.");
    spec([]).when(addOverride()).thenRefused("schedule_first");
    spec([scheduleSet]).when(addOverride(wednesdayEvening, CREATOR)).thenRefused("forbidden");
  });
  it("takes hours that touch others of that date, or the same hours on another date", () => {
    expect(
      accepted(
        [scheduleSet, overrideAdded()],
        addOverride({ overrideId: "x2", date: "2026-03-04", start_local: "20:00", end_local: "21:00" }),
      ),
    ).toBe(true);
    expect(accepted([scheduleSet, overrideAdded()], addOverride({ ...wednesdayEvening, overrideId: "x2", date: "2026-03-05" }))).toBe(true);
  });
  it("refuses an end not after the start", () => {
    spec([scheduleSet])
      .when(addOverride({ ...wednesdayEvening, end_local: "17:00" }))
      .thenRefused("date_override_invalid");
  });
  it(`keeps at most ${MAX_UPCOMING_DATE_OVERRIDES} upcoming; past dates do not count`, () => {
    const upcoming = Array.from({ length: MAX_UPCOMING_DATE_OVERRIDES }, (_, i) =>
      overrideAdded({ overrideId: `u${i}`, date: "2026-03-10", start_local: `${String(i % 24).padStart(2, "0")}:00`, end_local: "23:30" }),
    );
    spec([scheduleSet, ...upcoming])
      .when(addOverride())
      .thenRefused("date_override_limit");
    expect(
      accepted(
        [
          scheduleSet,
          ...upcoming.slice(1),
          overrideAdded({ overrideId: "old", date: "2026-03-01", start_local: "18:00", end_local: "19:00" }),
        ],
        addOverride(),
      ),
    ).toBe(true);
  });
  it("is removed by id; an unknown id is refused", () => {
    spec([scheduleSet, overrideAdded()])
      .when({ type: "RemoveDateOverride", ...base, overrideId: "x1" })
      .then([{ type: "DateOverrideRemoved", data: { expertId: EXPERT_ID, overrideId: "x1" } }]);
    spec([scheduleSet])
      .when({ type: "RemoveDateOverride", ...base, overrideId: "x1" })
      .thenRefused("date_override_not_found", "No extra hours found.");
  });
  it("opens bookings outside the weekly hours on that date only, joined to the weekly hours they touch", () => {
    const given = [scheduleSet, overrideAdded()];
    expect(accepted(given, requestBooking({ scheduledTime: "2026-03-04T18:30:00.000Z" }))).toBe(true);
    expect(accepted(given, requestBooking({ scheduledTime: "2026-03-04T16:30:00.000Z" }))).toBe(true); // 16:30-17:30 runs from the weekly hours into the extra ones
    spec(given)
      .when(requestBooking({ scheduledTime: "2026-03-04T19:30:00.000Z" }))
      .thenRefused("slot_unavailable"); // would end at 20:30
    spec(given)
      .when(requestBooking({ scheduledTime: "2026-03-05T18:30:00.000Z" }))
      .thenRefused("slot_unavailable"); // Thursday: weekly hours only
    spec([scheduleSet])
      .when(requestBooking({ scheduledTime: "2026-03-04T18:30:00.000Z" }))
      .thenRefused("slot_unavailable");
  });
  it("time off wins over extra hours", () => {
    const given = [
      scheduleSet,
      overrideAdded(),
      timeOffAdded({ timeOffId: "eve", start: "2026-03-04T18:00", end: "2026-03-04T20:00", reason: "" }),
    ];
    spec(given)
      .when(requestBooking({ scheduledTime: "2026-03-04T18:30:00.000Z" }))
      .thenRefused("slot_unavailable");
  });
});

describe("buffers and minimum notice", () => {
  it("an expert sets them; setting the same again changes nothing", () => {
    const r = rules({ bufferBeforeMinutes: 10, bufferAfterMinutes: 30, minNoticeHours: 12 });
    spec([scheduleSet])
      .when(setRules(r))
      .then([rulesSet(r)]);
    spec([scheduleSet, rulesSet(r)])
      .when(setRules(r))
      .then([]);
    spec([]).when(setRules(r)).thenRefused("schedule_first");
    spec([scheduleSet]).when(setRules(r, OTHER_CREATOR)).thenRefused("forbidden");
  });

  it("a buffer after each session pushes the next start past it", () => {
    const given = [scheduleSet, requested("b1", T1), paid("b1"), rulesSet(rules({ bufferAfterMinutes: 30 }))]; // b1 10:00-11:00
    spec(given)
      .when(requestBooking({ scheduledTime: "2026-03-03T11:00:00.000Z" }))
      .thenRefused("slot_unavailable");
    expect(accepted(given, requestBooking({ scheduledTime: "2026-03-03T11:30:00.000Z" }))).toBe(true);
    // Before it too: a session ending at 10:00 would leave no 30 minutes before b1.
    spec(given)
      .when(requestBooking({ scheduledTime: "2026-03-03T09:00:00.000Z" }))
      .thenRefused("slot_unavailable");
  });
  it("a 10-minute buffer after still needs the next half hour; a buffer before works the same way", () => {
    const after10 = [scheduleSet, requested("b1", T1), paid("b1"), rulesSet(rules({ bufferAfterMinutes: 10 }))];
    spec(after10)
      .when(requestBooking({ scheduledTime: "2026-03-03T11:00:00.000Z" }))
      .thenRefused("slot_unavailable");
    expect(accepted(after10, requestBooking({ scheduledTime: "2026-03-03T11:30:00.000Z" }))).toBe(true);
    const before15 = [scheduleSet, requested("b1", T1), paid("b1"), rulesSet(rules({ bufferBeforeMinutes: 15 }))];
    spec(before15)
      .when(requestBooking({ scheduledTime: "2026-03-03T11:00:00.000Z" }))
      .thenRefused("slot_unavailable");
    spec(before15)
      .when(requestBooking({ scheduledTime: "2026-03-03T09:00:00.000Z" }))
      .thenRefused("slot_unavailable");
    expect(accepted(before15, requestBooking({ scheduledTime: "2026-03-03T11:30:00.000Z" }))).toBe(true);
  });
  it("the booking decision and availability agree: the first start offered after b1 is the first one accepted", () => {
    const given = [scheduleSet, requested("b1", T1), paid("b1"), rulesSet(rules({ bufferBeforeMinutes: 15, bufferAfterMinutes: 15 }))];
    const state = stateOf(given);
    const offered = bookableStarts({
      ...expertHours(state)!,
      lengthMinutes: 60,
      busy: busyPeriods(state, NOW),
      now: NOW,
      from: "2026-03-03T09:00:00.000Z",
      to: "2026-03-03T13:00:00.000Z",
    });
    expect(offered).toEqual([
      "2026-03-03T11:30:00.000Z",
      "2026-03-03T12:00:00.000Z",
      "2026-03-03T12:30:00.000Z",
      "2026-03-03T13:00:00.000Z",
    ]);
    for (const t of ["2026-03-03T09:00:00.000Z", "2026-03-03T11:00:00.000Z"])
      spec(given)
        .when(requestBooking({ scheduledTime: t }))
        .thenRefused("slot_unavailable");
  });

  it("a minimum notice refuses starts sooner than it, from the moment of the request", () => {
    const given = [scheduleSet, rulesSet(rules({ minNoticeHours: 27 }))]; // NOW + 27 h = Tuesday 11:00
    spec(given)
      .when(requestBooking({ scheduledTime: "2026-03-03T10:30:00.000Z" }))
      .thenRefused("slot_unavailable");
    expect(accepted(given, requestBooking({ scheduledTime: "2026-03-03T11:00:00.000Z" }))).toBe(true);
    // An hour later the 11:00 start is too soon as well.
    spec(given)
      .when(requestBooking({ scheduledTime: "2026-03-03T11:00:00.000Z" }), "2026-03-02T09:00:00.000Z")
      .thenRefused("slot_unavailable");
  });
  it("an expert's proposed times keep the notice and the buffers too", () => {
    const given = [
      ...bookingIn("pending"),
      requested("b9", "2026-03-05T14:00:00.000Z", OTHER_CREATOR.userId),
      paid("b9", "pi_9"),
      rulesSet(rules({ minNoticeHours: 30, bufferAfterMinutes: 30 })),
    ];
    spec(given)
      .when(commands.proposeTime(EXPERT, "2026-03-03T13:00:00.000Z"))
      .thenRefused("proposed_time_too_soon", "That time is sooner than your minimum notice. Please propose a later time.");
    spec(given).when(commands.proposeTime(EXPERT, "2026-03-05T15:00:00.000Z")).thenRefused("proposed_time_invalid"); // b9 ends 15:00, its buffer runs to 15:30
    expect(accepted(given, commands.proposeTime(EXPERT, "2026-03-05T15:30:00.000Z"))).toBe(true);
  });
});
