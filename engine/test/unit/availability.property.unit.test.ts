import fc from "fast-check";
import { DateTime } from "luxon";
import { describe, expect, it } from "vitest";
import {
  BUFFER_OPTIONS_MINUTES,
  MAX_NOTICE_HOURS,
  NO_BOOKING_RULES,
  SESSION_LENGTHS_MINUTES,
  WEEKDAYS,
  minutesOfDay,
  type BookingRules,
  type WeeklySchedule,
  type WeeklySlot,
} from "@booking/contracts";
import {
  bookableStarts,
  firstBookableStart,
  isBookableStart,
  isProposableStart,
  proposableStarts,
  type BusyPeriod,
} from "../../src/availability/availability.ts";

// Availability across DST: property tests in zones with 60-minute shifts (New York, London),
// a 30-minute shift (Lord Howe), a half-hour offset without DST (Kolkata) and a 45-minute offset
// with DST (Chatham). Each run's 28-day window contains a DST change where the zone has one, and
// each run draws time off, extra hours on dates, buffers and a minimum notice (often none).

const MINUTE = 60_000;

const zones = {
  "America/New_York": ["2026-03-08T07:00:00Z", "2026-11-01T06:00:00Z"],
  "Europe/London": ["2026-03-29T01:00:00Z", "2026-10-25T01:00:00Z"],
  "Australia/Lord_Howe": ["2026-04-04T15:00:00Z", "2026-10-03T15:30:00Z"],
  "Asia/Kolkata": ["2026-06-15T00:00:00Z"],
  "Pacific/Chatham": ["2026-04-04T14:00:00Z", "2026-09-26T14:00:00Z"],
} as const;

const hhmm = (m: number) => `${String(Math.floor(m / 60)).padStart(2, "0")}:${String(m % 60).padStart(2, "0")}`;

/** Weekly slots on the half-hour grid, end after start, no overlap within a weekday. */
const slotsArb = fc
  .array(
    fc.record({
      weekday: fc.constantFrom(...WEEKDAYS),
      start: fc.integer({ min: 0, max: 46 }),
      span: fc.integer({ min: 1, max: 20 }),
    }),
    { minLength: 1, maxLength: 8 },
  )
  .map((raw) => {
    const slots: WeeklySlot[] = [];
    for (const r of raw) {
      const start = r.start * 30;
      const end = Math.min(start + r.span * 30, 23 * 60 + 30);
      if (end <= start) continue;
      const clash = slots.some((s) => s.weekday === r.weekday && start < minutesOfDay(s.end_local) && minutesOfDay(s.start_local) < end);
      if (!clash) slots.push({ weekday: r.weekday, start_local: hhmm(start), end_local: hhmm(end) });
    }
    return slots;
  });

/** Time off: local date-time ranges from two days before "now" to a month after, half an hour to five days long. */
const timeOffArb = (zone: string, now: string) =>
  fc
    .array(
      fc.record({
        day: fc.integer({ min: -2, max: 30 }),
        at: fc.integer({ min: 0, max: 47 }),
        halfHours: fc.integer({ min: 1, max: 5 * 48 }),
      }),
      { maxLength: 4 },
    )
    .map((raw) =>
      raw.map((r, i) => {
        // Wall-clock arithmetic: the local strings are added to as if they were UTC, which is what a local date-time is.
        const start = DateTime.fromISO(`${DateTime.fromISO(now, { zone }).plus({ days: r.day }).toISODate()}T${hhmm(r.at * 30)}`, {
          zone: "utc",
        });
        return {
          timeOffId: `t${i}`,
          start: start.toFormat("yyyy-MM-dd'T'HH:mm"),
          end: start.plus({ minutes: r.halfHours * 30 }).toFormat("yyyy-MM-dd'T'HH:mm"),
          reason: "",
        };
      }),
    );

/** Extra hours on dates in the window, overlapping the weekly slots or each other at times. */
const overridesArb = (zone: string, now: string) =>
  fc
    .array(
      fc.record({ day: fc.integer({ min: 0, max: 29 }), start: fc.integer({ min: 0, max: 46 }), span: fc.integer({ min: 1, max: 12 }) }),
      { maxLength: 4 },
    )
    .map((raw) =>
      raw.map((r, i) => ({
        overrideId: `o${i}`,
        date: DateTime.fromISO(now, { zone }).plus({ days: r.day }).toISODate()!,
        start_local: hhmm(r.start * 30),
        end_local: hhmm(Math.min(r.start * 30 + r.span * 30, 23 * 60 + 30)),
      })),
    );

const rulesArb: fc.Arbitrary<BookingRules> = fc.record({
  bufferBeforeMinutes: fc.constantFrom(...BUFFER_OPTIONS_MINUTES),
  bufferAfterMinutes: fc.constantFrom(...BUFFER_OPTIONS_MINUTES),
  minNoticeHours: fc.oneof(fc.constant(0), fc.integer({ min: 0, max: 72 }), fc.constant(MAX_NOTICE_HOURS)),
});

/** Busy times of connected calendars (issue 32): none, a few, or a dense set; from before "now" to past the window. */
const externalBusyArb: fc.Arbitrary<{ minutes: number; length: number }[]> = fc.oneof(
  fc.constant<{ minutes: number; length: number }[]>([]),
  fc.array(fc.record({ minutes: fc.integer({ min: -600, max: 29 * 24 * 60 }), length: fc.integer({ min: 1, max: 8 * 60 }) }), {
    maxLength: 12,
  }),
  fc.array(fc.record({ minutes: fc.integer({ min: -600, max: 29 * 24 * 60 }), length: fc.integer({ min: 5, max: 90 }) }), {
    minLength: 40,
    maxLength: 120,
  }),
);

const caseArb = fc
  .constantFrom(...(Object.keys(zones) as (keyof typeof zones)[]))
  .chain((zone) =>
    // "now" lands 0-27 days before a DST change, at any minute.
    fc.tuple(fc.constantFrom(...zones[zone]), fc.integer({ min: 0, max: 27 * 24 * 60 })).chain(([change, back]) => {
      const now = new Date(Date.parse(change) - back * MINUTE).toISOString();
      return fc.record({
        zone: fc.constant(zone),
        now: fc.constant(now),
        slots: slotsArb,
        lengthMinutes: fc.constantFrom(...SESSION_LENGTHS_MINUTES),
        busyOffsets: fc.array(
          fc.record({ minutes: fc.integer({ min: -240, max: 28 * 24 * 60 }), length: fc.constantFrom(...SESSION_LENGTHS_MINUTES) }),
          { maxLength: 10 },
        ),
        timeOff: timeOffArb(zone, now),
        dateOverrides: overridesArb(zone, now),
        rules: rulesArb,
        externalOffsets: externalBusyArb,
      });
    }),
  )
  .map((c) => ({
    ...c,
    schedule: { timezone: c.zone, slots: c.slots } as WeeklySchedule,
    busy: c.busyOffsets.map((b) => ({
      start: new Date(Date.parse(c.now) + Math.round(b.minutes / 15) * 15 * MINUTE).toISOString(),
      lengthMinutes: b.length,
    })) as BusyPeriod[],
    // Connected calendars' busy times sit on any minute (not the half-hour grid), often overlapping.
    externalBusy: c.externalOffsets.map((b) => ({
      start: new Date(Date.parse(c.now) + b.minutes * MINUTE).toISOString(),
      end: new Date(Date.parse(c.now) + (b.minutes + b.length) * MINUTE).toISOString(),
    })),
  }));
type Case = typeof caseArb extends fc.Arbitrary<infer C> ? C : never;

/** The query both the list and the single-instant check answer. */
const queryOf = (c: Case) => ({
  schedule: c.schedule,
  timeOff: c.timeOff,
  dateOverrides: c.dateOverrides,
  rules: c.rules,
  lengthMinutes: c.lengthMinutes,
  busy: c.busy,
  now: c.now,
  externalBusy: c.externalBusy,
});

const windowEnd = (now: string) => DateTime.fromISO(now, { zone: "utc" }).plus({ days: 28 }).toMillis();
const earliest = (c: Pick<Case, "now" | "rules">) => Date.parse(c.now) + c.rules.minNoticeHours * 60 * MINUTE;

/** Reference buffers: the session and each booking, each widened by the before-buffer and the after-buffer, do not overlap. */
const overlapsWithBuffers = (t: number, len: number, busy: readonly BusyPeriod[], r: BookingRules) =>
  busy.some((b) => {
    const bStart = Date.parse(b.start);
    const bEnd = bStart + b.lengthMinutes * MINUTE;
    return (
      t - r.bufferBeforeMinutes * MINUTE < bEnd + r.bufferAfterMinutes * MINUTE &&
      bStart - r.bufferBeforeMinutes * MINUTE < t + (len + r.bufferAfterMinutes) * MINUTE
    );
  });

/** Reference external busy times: the session widened by the expert's buffers meets none of them (issue 32). */
const meetsExternal = (t: number, len: number, busy: Case["externalBusy"], r: BookingRules) =>
  busy.some(
    (b) => t - r.bufferBeforeMinutes * MINUTE < Date.parse(b.end) && Date.parse(b.start) < t + (len + r.bufferAfterMinutes) * MINUTE,
  );

/** Reference time off: the moment's wall-clock date and time, as text, lies in some [start, end). */
const inTimeOff = (at: DateTime, timeOff: Case["timeOff"]) => {
  const local = at.toFormat("yyyy-MM-dd'T'HH:mm");
  return timeOff.some((o) => o.start <= local && local < o.end);
};

/** Reference open hours: the minutes of a local date inside a weekly slot of its weekday or that date's extra hours. */
function openMinutes(c: Case, date: string, weekday: number): boolean[] {
  const open = new Array<boolean>(24 * 60).fill(false);
  const mark = (from: string, to: string) => {
    for (let m = minutesOfDay(from); m < minutesOfDay(to); m++) open[m] = true;
  };
  for (const s of c.schedule.slots) if (s.weekday === WEEKDAYS[weekday - 1]) mark(s.start_local, s.end_local);
  for (const o of c.dateOverrides) if (o.date === date) mark(o.start_local, o.end_local);
  return open;
}

/**
 * Reference: between notice and 28 days out, on the local half hour; every 5-minute moment of the
 * session on the start's local date, outside time off, and every wall-clock minute from the
 * earliest to the latest the session reads is open; with buffers, it meets no booking.
 */
function referenceBookable(t: number, c: Case): boolean {
  if (t < earliest(c) || t > windowEnd(c.now)) return false;
  const local = DateTime.fromMillis(t, { zone: c.zone });
  if (local.second !== 0 || local.minute % 30 !== 0) return false;
  const date = local.toISODate()!;
  const open = openMinutes(c, date, local.weekday);
  if (!open[local.hour * 60 + local.minute]) return false; // a shortcut: the start is one of the minutes checked below
  const moments = Array.from({ length: c.lengthMinutes / 5 }, (_, i) => DateTime.fromMillis(t + i * 5 * MINUTE, { zone: c.zone }));
  if (moments.some((at) => at.toISODate() !== date)) return false;
  const walls = moments.map((at) => at.hour * 60 + at.minute);
  for (let w = Math.min(...walls); w <= Math.max(...walls); w++) if (!open[w]) return false;
  if (moments.some((at) => inTimeOff(at, c.timeOff))) return false;
  if (meetsExternal(t, c.lengthMinutes, c.externalBusy, c.rules)) return false;
  return !overlapsWithBuffers(t, c.lengthMinutes, c.busy, c.rules);
}

describe("bookable start times (property)", () => {
  it("every offered time is on the local grid, in open hours to its end, out of time off, clear of bookings with buffers, and between notice and 28 days", () => {
    fc.assert(
      fc.property(caseArb, (c) => {
        const offered = bookableStarts(queryOf(c));
        for (const iso of offered) {
          const t = Date.parse(iso);
          const local = DateTime.fromMillis(t, { zone: c.zone });
          expect(local.minute % 30).toBe(0);
          expect(t).toBeGreaterThanOrEqual(earliest(c));
          expect(t).toBeLessThanOrEqual(windowEnd(c.now));
          expect(overlapsWithBuffers(t, c.lengthMinutes, c.busy, c.rules)).toBe(false);
          expect(meetsExternal(t, c.lengthMinutes, c.externalBusy, c.rules), `${iso} meets an external busy time`).toBe(false);
          const open = openMinutes(c, local.toISODate()!, local.weekday);
          const end = DateTime.fromMillis(t + c.lengthMinutes * MINUTE - 1, { zone: c.zone });
          expect(open[local.hour * 60 + local.minute], `${iso} (${local.toISO()}) is not in open hours`).toBe(true);
          // The session's last moment still reads in open hours, on the same local date.
          expect(end.toISODate()).toBe(local.toISODate());
          expect(open[end.hour * 60 + end.minute]).toBe(true);
          expect(inTimeOff(local, c.timeOff) || inTimeOff(end, c.timeOff), `${iso} is in time off`).toBe(false);
        }
        expect(new Set(offered).size).toBe(offered.length);
      }),
      { numRuns: 150 },
    );
  });

  it("a brute-force search over every 15-minute instant finds no valid time the code misses, and no extra one", () => {
    fc.assert(
      fc.property(caseArb, (c) => {
        const offered = new Set(bookableStarts(queryOf(c)));
        const expected: string[] = [];
        const step = 15 * MINUTE;
        for (let t = Math.ceil(Date.parse(c.now) / step) * step; t <= windowEnd(c.now); t += step) {
          if (referenceBookable(t, c)) expected.push(new Date(t).toISOString());
        }
        expect([...offered].sort()).toEqual(expected.sort());
      }),
      { numRuns: 60 },
    );
    // Pure CPU (60 cases × every 15-minute instant of 28 days): 81 s on a loaded machine beside another test file, over the project's minute.
  }, 240_000);

  it("the booking decision's single-instant check agrees with the list", () => {
    fc.assert(
      fc.property(caseArb, fc.integer({ min: 0, max: 28 * 96 }), (c, k) => {
        const q = queryOf(c);
        const list = new Set(bookableStarts(q));
        const t = new Date(Math.ceil(Date.parse(c.now) / (15 * MINUTE)) * 15 * MINUTE + k * 15 * MINUTE).toISOString();
        expect(isBookableStart(q, t)).toBe(list.has(t));
        for (const offered of [...list].slice(0, 20)) expect(isBookableStart(q, offered)).toBe(true);
      }),
      { numRuns: 150 },
    );
  });

  it("the listing's soonest available is the first time the list offers, or none when it offers none (issue 30.5)", () => {
    fc.assert(
      fc.property(caseArb, (c) => {
        const q = queryOf(c);
        expect(firstBookableStart(q)).toBe(bookableStarts(q)[0] ?? null);
      }),
      { numRuns: 150 },
    );
  });

  it("time off, external busy times, buffers and notice only take times away; extra hours only add them", () => {
    fc.assert(
      fc.property(caseArb, (c) => {
        const all = queryOf(c);
        const offered = new Set(bookableStarts(all));
        const subsetOf = (smaller: Set<string>, larger: Set<string>) => [...smaller].filter((t) => !larger.has(t));
        expect(subsetOf(offered, new Set(bookableStarts({ ...all, timeOff: [] })))).toEqual([]);
        expect(subsetOf(offered, new Set(bookableStarts({ ...all, externalBusy: [] })))).toEqual([]);
        expect(subsetOf(offered, new Set(bookableStarts({ ...all, rules: NO_BOOKING_RULES })))).toEqual([]);
        expect(subsetOf(new Set(bookableStarts({ ...all, dateOverrides: [] })), offered)).toEqual([]);
      }),
      { numRuns: 40 },
    );
  });
});

describe("expert-proposed times (property)", () => {
  it("are exactly the times a creator could book, with the same answer for one instant (issue 27.12)", () => {
    fc.assert(
      fc.property(caseArb, (c) => {
        const q = queryOf(c);
        const offered = proposableStarts(q);
        expect(offered).toEqual(bookableStarts(q));
        for (const iso of offered.slice(0, 10)) expect(isProposableStart(q, iso)).toBe(true);
      }),
      { numRuns: 60 },
    );
  });
});

describe("DST days, by example", () => {
  const now = "2026-03-01T00:00:00Z";
  it("New York's skipped hour offers nothing between 2:00 and 3:00, and a session may span the jump", () => {
    const schedule: WeeklySchedule = {
      timezone: "America/New_York",
      slots: [{ weekday: "sunday", start_local: "01:00", end_local: "04:00" }],
    };
    const local = bookableStarts({
      schedule,
      lengthMinutes: 60,
      busy: [],
      now,
      from: "2026-03-08T00:00:00Z",
      to: "2026-03-09T00:00:00Z",
    }).map((t) => DateTime.fromISO(t, { zone: "America/New_York" }).toFormat("HH:mm ZZ"));
    // 01:30 EST + 60 real minutes ends at 03:30 EDT: still inside the slot.
    expect(local).toEqual(["01:00 -05:00", "01:30 -05:00", "03:00 -04:00"]);
  });
  it("New York's repeated hour offers its half hours twice", () => {
    const schedule: WeeklySchedule = {
      timezone: "America/New_York",
      slots: [{ weekday: "sunday", start_local: "01:00", end_local: "02:00" }],
    };
    const local = bookableStarts({
      schedule,
      lengthMinutes: 30,
      busy: [],
      now: "2026-10-20T00:00:00Z",
      from: "2026-11-01T00:00:00Z",
      to: "2026-11-02T00:00:00Z",
    }).map((t) => DateTime.fromISO(t, { zone: "America/New_York" }).toFormat("HH:mm ZZ"));
    expect(local).toEqual(["01:00 -04:00", "01:30 -04:00", "01:00 -05:00", "01:30 -05:00"]);
  });
  it("Lord Howe's 30-minute jump skips 2:00 to 2:30", () => {
    const schedule: WeeklySchedule = {
      timezone: "Australia/Lord_Howe",
      slots: [{ weekday: "sunday", start_local: "01:00", end_local: "04:00" }],
    };
    const local = bookableStarts({
      schedule,
      lengthMinutes: 30,
      busy: [],
      now: "2026-09-20T00:00:00Z",
      from: "2026-10-03T12:00:00Z",
      to: "2026-10-04T12:00:00Z",
    }).map((t) => DateTime.fromISO(t, { zone: "Australia/Lord_Howe" }).toFormat("HH:mm"));
    expect(local).toEqual(["01:00", "01:30", "02:30", "03:00", "03:30"]);
  });
  it("an unknown zone offers nothing rather than failing", () => {
    expect(
      bookableStarts({
        schedule: { timezone: "Nowhere/Land", slots: [{ weekday: "monday", start_local: "09:00", end_local: "10:00" }] },
        lengthMinutes: 30,
        busy: [],
        now,
      }),
    ).toEqual([]);
  });
});

it("a full-time London schedule offers 15 one-hour starts a day across all 28 days, over the DST change", () => {
  const schedule: WeeklySchedule = {
    timezone: "Europe/London",
    slots: WEEKDAYS.map((weekday) => ({ weekday, start_local: "09:00", end_local: "17:00" })),
  };
  const starts = bookableStarts({ schedule, lengthMinutes: 60, busy: [], now: "2026-03-02T00:00:00Z" });
  expect(starts.length).toBe(28 * 15);
  expect(DateTime.fromISO(starts.at(-1)!, { zone: "Europe/London" }).toFormat("yyyy-MM-dd HH:mm ZZ")).toBe("2026-03-29 16:00 +01:00");
});
