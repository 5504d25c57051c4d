import { describe, expect, it } from "vitest";
import type { BookingRules } from "@booking/contracts";
import { isBookableStart } from "../../src/availability/availability.ts";
import { calendarAt, calendarDayAsOf, localDateOf, localDay } from "../../src/calendar/calendar-as-of.ts";
import { busyPeriods, expertHours } from "../../src/calendar/calendar.ts";
import { recordedStream } from "./recorded-stream.ts";
import { BOOKING, EXPERT, EXPERT_ID, OTHER_CREATOR, PRICE, SYSTEM, T1, requestBooking } from "./calendar-fixtures.ts";

// An expert's calendar at an instant: the stream folded to it, and availability read over it then.

const at = (day: number, hhmm: string) => `2026-03-0${day}T${hhmm}:00.000Z`;
const DAY = "2026-03-03"; // T1's date; London is on GMT, so local times read as UTC
const B2 = "b2";
const B2_TIME = at(3, "14:00");

const rules: BookingRules = { bufferBeforeMinutes: 15, bufferAfterMinutes: 15, minNoticeHours: 0 };
const stream = recordedStream(at(2, "07:00"), [
  [at(2, "07:30"), { type: "SetBookingRules", expertId: EXPERT_ID, actor: EXPERT, rules }],
  // b1: an unpaid hold of 10:00-11:00 until 08:15.
  [at(2, "08:00"), requestBooking({ bookingId: BOOKING, scheduledTime: T1 })],
  // b2: 14:00-15:00, paid.
  [at(2, "08:30"), requestBooking({ bookingId: B2, actor: OTHER_CREATOR, scheduledTime: B2_TIME })],
  [
    at(2, "08:31"),
    { type: "RecordPayment", expertId: EXPERT_ID, bookingId: B2, actor: SYSTEM, paymentId: "pi_b2", amountCents: PRICE, provider: "test" },
  ],
  [
    at(2, "09:00"),
    {
      type: "AddTimeOff",
      expertId: EXPERT_ID,
      actor: EXPERT,
      timeOff: { timeOffId: "off1", start: `${DAY}T12:00`, end: `${DAY}T13:00`, reason: "Dentist" },
    },
  ],
  // b2's creator asks to move it to the next day at 10:00: held beside 14:00 until answered.
  [
    at(2, "09:40"),
    {
      type: "RequestReschedule",
      expertId: EXPERT_ID,
      bookingId: B2,
      actor: OTHER_CREATOR,
      scheduledTime: at(4, "10:00"),
      creatorBookings: [],
    },
  ],
  [at(3, "09:10"), { type: "CancelBooking", expertId: EXPERT_ID, bookingId: B2, actor: EXPERT, reason: "" }],
]);

/** Times held at an instant, as the test knows them: [start, minutes]. */
type Held = readonly [string, number][];

/**
 * Reference, from the scenario as written (no engine): a 60-minute start on the half hour of the
 * London date, 09:00-16:00 so it ends by 17:00, not before `now`, out of the time off (if added
 * by then), and with 15-minute buffers either side clear of what was held (with theirs).
 */
function reference(now: string, held: Held, timeOffAdded: boolean): string[] {
  const found: string[] = [];
  for (let m = 0; m < 24 * 60; m += 30) {
    const t = Date.parse(`${DAY}T00:00:00.000Z`) + m * 60_000;
    if (t < Date.parse(now) || m < 9 * 60 || m + 60 > 17 * 60) continue;
    if (timeOffAdded && t < Date.parse(`${DAY}T13:00:00.000Z`) && Date.parse(`${DAY}T12:00:00.000Z`) < t + 3_600_000) continue;
    const clash = held.some(
      ([start, minutes]) =>
        t - 15 * 60_000 < Date.parse(start) + (minutes + 15) * 60_000 && Date.parse(start) - 15 * 60_000 < t + 75 * 60_000,
    );
    if (!clash) found.push(new Date(t).toISOString());
  }
  return found;
}

describe("a calendar as of an instant", () => {
  const cases: { now: string; held: Held; timeOff: boolean; holders: string[] }[] = [
    { now: at(2, "07:45"), held: [], timeOff: false, holders: [] },
    { now: at(2, "08:00"), held: [[T1, 60]], timeOff: false, holders: [`${BOOKING}@${T1}`] },
    { now: at(2, "08:14"), held: [[T1, 60]], timeOff: false, holders: [`${BOOKING}@${T1}`] },
    // The unpaid hold ran out at 08:15: its time is free again though no event says so.
    { now: at(2, "08:15"), held: [], timeOff: false, holders: [] },
    { now: at(2, "08:30"), held: [[B2_TIME, 60]], timeOff: false, holders: [`${B2}@${B2_TIME}`] },
    { now: at(2, "09:00"), held: [[B2_TIME, 60]], timeOff: true, holders: [`${B2}@${B2_TIME}`] },
    { now: at(2, "09:45"), held: [[B2_TIME, 60]], timeOff: true, holders: [`${B2}@${B2_TIME}`] },
    // On the day itself: only what is still ahead, and b2 cancelled at 09:10 frees 14:00.
    { now: at(3, "09:05"), held: [[B2_TIME, 60]], timeOff: true, holders: [`${B2}@${B2_TIME}`] },
    { now: at(3, "09:10"), held: [], timeOff: true, holders: [] },
  ];
  for (const c of cases) {
    it(`at ${c.now}: bookable times equal the reference and every half hour's single-time check; the holders are ${c.holders.join(", ") || "none"}`, () => {
      const { state } = calendarAt(stream, c.now);
      const day = calendarDayAsOf(state, c.now, DAY, 60);
      expect(day.timezone).toBe("Europe/London");
      expect(day.bookable).toEqual(reference(c.now, c.held, c.timeOff));
      // The booking decision's own check, every half hour of the date, over the same fold.
      const hours = expertHours(state)!;
      const single = Array.from({ length: 48 }, (_, i) =>
        new Date(Date.parse(`${DAY}T00:00:00.000Z`) + i * 30 * 60_000).toISOString(),
      ).filter((t) => isBookableStart({ ...hours, lengthMinutes: 60, busy: busyPeriods(state, c.now), now: c.now }, t));
      expect(day.bookable).toEqual(single);
      expect(day.held.map((h) => `${h.bookingId}@${h.start}`)).toEqual(c.holders);
      expect(day.held.every((h) => h.bufferBeforeMinutes === 15 && h.bufferAfterMinutes === 15 && h.lengthMinutes === 60)).toBe(true);
      expect(day.timeOff.map((o) => o.timeOffId)).toEqual(c.timeOff ? ["off1"] : []);
    });
  }

  it("shows the time an open request to move a booking holds on its own date, beside the booking's own", () => {
    const now = at(2, "09:45");
    const { state } = calendarAt(stream, now);
    const next = calendarDayAsOf(state, now, "2026-03-04", 60);
    expect(next.held).toEqual([
      {
        bookingId: B2,
        creatorId: OTHER_CREATOR.userId,
        status: "pending",
        holds: "reschedule",
        start: at(4, "10:00"),
        lengthMinutes: 60,
        bufferBeforeMinutes: 15,
        bufferAfterMinutes: 15,
      },
    ]);
    expect(next.bookable).not.toContain(at(4, "10:00"));
    expect(calendarDayAsOf(calendarAt(stream, at(2, "09:39")).state, at(2, "09:39"), "2026-03-04", 60).bookable).toContain(at(4, "10:00"));
  });

  it("folds only the events recorded at or before the instant, and stops at the first later one", () => {
    expect(calendarAt(stream, at(2, "06:59")).folded).toBe(0);
    expect(calendarAt(stream, at(2, "08:00")).folded).toBe(3);
    const stepBack = [stream[0]!, { ...stream[2]!, at: at(2, "09:00") }, { ...stream[1]!, at: at(2, "08:00") }];
    expect(calendarAt(stepBack, at(2, "08:30")).folded).toBe(1);
  });

  it("answers nothing bookable before the expert set a schedule", () => {
    const { state } = calendarAt(stream, at(1, "00:00"));
    expect(calendarDayAsOf(state, at(1, "00:00"), DAY, 60)).toMatchObject({ timezone: null, bookable: [], held: [] });
  });

  it("reads a date in the expert's zone", () => {
    expect(localDateOf("2026-07-01T23:30:00.000Z", "Europe/Berlin")).toBe("2026-07-02");
    expect(localDay("2026-03-29", "Europe/London")).toEqual({ from: "2026-03-29T00:00:00.000Z", to: "2026-03-29T23:00:00.000Z" });
    expect(localDay("2026-07-02", "Europe/Berlin").from).toBe("2026-07-01T22:00:00.000Z");
  });
});
