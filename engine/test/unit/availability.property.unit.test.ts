import fc from "fast-check";
import { DateTime } from "luxon";
import { describe, expect, it } from "vitest";
import { SESSION_LENGTHS_MINUTES, WEEKDAYS, minutesOfDay, type WeeklySchedule, type WeeklySlot } from "@booking/contracts";
import { bookableStarts, isBookableStart, isProposableStart, proposableStarts, type BusyPeriod } from "../../src/availability/availability.ts";

// Availability across DST: property tests in zones with 60-minute shifts (New York, London),
// a 30-minute shift (Lord Howe), a half-hour offset without DST (Kolkata) and a 45-minute offset
// with DST (Chatham). Each run's 28-day window contains a DST change where the zone has one.

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

const caseArb = fc
  .constantFrom(...(Object.keys(zones) as (keyof typeof zones)[]))
  .chain((zone) =>
    fc.record({
      zone: fc.constant(zone),
      // "now" lands 0-27 days before a DST change, at any minute.
      now: fc.tuple(fc.constantFrom(...zones[zone]), fc.integer({ min: 0, max: 27 * 24 * 60 })).map(([change, back]) => new Date(Date.parse(change) - back * MINUTE).toISOString()),
      slots: slotsArb,
      lengthMinutes: fc.constantFrom(...SESSION_LENGTHS_MINUTES),
      busyOffsets: fc.array(fc.record({ minutes: fc.integer({ min: -240, max: 28 * 24 * 60 }), length: fc.constantFrom(...SESSION_LENGTHS_MINUTES) }), { maxLength: 10 }),
    }),
  )
  .map((c) => ({
    ...c,
    schedule: { timezone: c.zone, slots: c.slots } as WeeklySchedule,
    busy: c.busyOffsets.map((b) => ({ start: new Date(Date.parse(c.now) + Math.round(b.minutes / 15) * 15 * MINUTE).toISOString(), lengthMinutes: b.length })) as BusyPeriod[],
  }));

const windowEnd = (now: string) => DateTime.fromISO(now, { zone: "utc" }).plus({ days: 28 }).toMillis();
const overlaps = (t: number, len: number, busy: readonly BusyPeriod[]) => busy.some((b) => t < Date.parse(b.start) + b.lengthMinutes * MINUTE && Date.parse(b.start) < t + len * MINUTE);

/** Reference: the local date and wall-clock minute of every 5-minute moment of the session. */
function referenceBookable(t: number, c: { zone: string; schedule: WeeklySchedule; lengthMinutes: number; busy: readonly BusyPeriod[]; now: string }): boolean {
  if (t < Date.parse(c.now) || t > windowEnd(c.now)) return false;
  const local = DateTime.fromMillis(t, { zone: c.zone });
  if (local.second !== 0 || local.minute % 30 !== 0) return false;
  const weekday = WEEKDAYS[local.weekday - 1];
  const date = local.toISODate();
  const fits = c.schedule.slots.some((s) => {
    if (s.weekday !== weekday) return false;
    for (let m = 0; m < c.lengthMinutes; m += 5) {
      const at = DateTime.fromMillis(t + m * MINUTE, { zone: c.zone });
      const wall = at.hour * 60 + at.minute;
      if (at.toISODate() !== date || wall < minutesOfDay(s.start_local) || wall >= minutesOfDay(s.end_local)) return false;
    }
    return true;
  });
  return fits && !overlaps(t, c.lengthMinutes, c.busy);
}

describe("bookable start times (property)", () => {
  it("every offered time is on the local grid, inside a slot, fits it, overlaps nothing and lies in the window", () => {
    fc.assert(
      fc.property(caseArb, (c) => {
        const offered = bookableStarts({ schedule: c.schedule, lengthMinutes: c.lengthMinutes, busy: c.busy, now: c.now });
        for (const iso of offered) {
          const t = Date.parse(iso);
          const local = DateTime.fromMillis(t, { zone: c.zone });
          expect(local.minute % 30).toBe(0);
          expect(t).toBeGreaterThanOrEqual(Date.parse(c.now));
          expect(t).toBeLessThanOrEqual(windowEnd(c.now));
          expect(overlaps(t, c.lengthMinutes, c.busy)).toBe(false);
          const end = DateTime.fromMillis(t + c.lengthMinutes * MINUTE - 1, { zone: c.zone });
          const slot = c.schedule.slots.find(
            (s) => s.weekday === WEEKDAYS[local.weekday - 1] && local.hour * 60 + local.minute >= minutesOfDay(s.start_local) && local.hour * 60 + local.minute < minutesOfDay(s.end_local),
          );
          expect(slot, `${iso} (${local.toISO()}) is in no slot`).toBeDefined();
          // The session's last moment still reads inside the slot, on the same local date.
          expect(end.toISODate()).toBe(local.toISODate());
          expect(end.hour * 60 + end.minute).toBeLessThan(minutesOfDay(slot!.end_local));
        }
        expect(new Set(offered).size).toBe(offered.length);
      }),
      { numRuns: 150 },
    );
  });

  it("a brute-force search over every 15-minute instant finds no valid time the code misses, and no extra one", () => {
    fc.assert(
      fc.property(caseArb, (c) => {
        const offered = new Set(bookableStarts({ schedule: c.schedule, lengthMinutes: c.lengthMinutes, busy: c.busy, now: c.now }));
        const expected: string[] = [];
        const step = 15 * MINUTE;
        for (let t = Math.ceil(Date.parse(c.now) / step) * step; t <= windowEnd(c.now); t += step) {
          if (referenceBookable(t, c)) expected.push(new Date(t).toISOString());
        }
        expect([...offered].sort()).toEqual(expected.sort());
      }),
      { numRuns: 60 },
    );
  });

  it("the booking decision's single-instant check agrees with the list", () => {
    fc.assert(
      fc.property(caseArb, fc.integer({ min: 0, max: 28 * 96 }), (c, k) => {
        const q = { schedule: c.schedule, lengthMinutes: c.lengthMinutes, busy: c.busy, now: c.now };
        const list = new Set(bookableStarts(q));
        const t = new Date(Math.ceil(Date.parse(c.now) / (15 * MINUTE)) * 15 * MINUTE + k * 15 * MINUTE).toISOString();
        expect(isBookableStart(q, t)).toBe(list.has(t));
        for (const offered of [...list].slice(0, 20)) expect(isBookableStart(q, offered)).toBe(true);
      }),
      { numRuns: 150 },
    );
  });
});

describe("expert-proposed times (property)", () => {
  it("are 9:00 to 17:30 half-hourly in the expert's zone, in the window, overlapping nothing, and none is missed", () => {
    fc.assert(
      fc.property(caseArb, (c) => {
        const q = { timezone: c.zone, lengthMinutes: c.lengthMinutes, busy: c.busy, now: c.now };
        const offered = proposableStarts(q);
        const expected: string[] = [];
        for (let t = Math.ceil(Date.parse(c.now) / (15 * MINUTE)) * 15 * MINUTE; t <= windowEnd(c.now); t += 15 * MINUTE) {
          const local = DateTime.fromMillis(t, { zone: c.zone });
          const wall = local.hour * 60 + local.minute;
          if (wall % 30 === 0 && wall >= 9 * 60 && wall <= 17 * 60 + 30 && !overlaps(t, c.lengthMinutes, c.busy)) expected.push(new Date(t).toISOString());
        }
        expect(offered).toEqual(expected);
        for (const iso of offered.slice(0, 10)) expect(isProposableStart(q, iso)).toBe(true);
      }),
      { numRuns: 60 },
    );
  });
});

describe("DST days, by example", () => {
  const now = "2026-03-01T00:00:00Z";
  it("New York's skipped hour offers nothing between 2:00 and 3:00, and a session may span the jump", () => {
    const schedule: WeeklySchedule = { timezone: "America/New_York", slots: [{ weekday: "sunday", start_local: "01:00", end_local: "04:00" }] };
    const local = bookableStarts({ schedule, lengthMinutes: 60, busy: [], now, from: "2026-03-08T00:00:00Z", to: "2026-03-09T00:00:00Z" }).map((t) =>
      DateTime.fromISO(t, { zone: "America/New_York" }).toFormat("HH:mm ZZ"),
    );
    // 01:30 EST + 60 real minutes ends at 03:30 EDT: still inside the slot.
    expect(local).toEqual(["01:00 -05:00", "01:30 -05:00", "03:00 -04:00"]);
  });
  it("New York's repeated hour offers its half hours twice", () => {
    const schedule: WeeklySchedule = { timezone: "America/New_York", slots: [{ weekday: "sunday", start_local: "01:00", end_local: "02:00" }] };
    const local = bookableStarts({ schedule, lengthMinutes: 30, busy: [], now: "2026-10-20T00:00:00Z", from: "2026-11-01T00:00:00Z", to: "2026-11-02T00:00:00Z" }).map((t) =>
      DateTime.fromISO(t, { zone: "America/New_York" }).toFormat("HH:mm ZZ"),
    );
    expect(local).toEqual(["01:00 -04:00", "01:30 -04:00", "01:00 -05:00", "01:30 -05:00"]);
  });
  it("Lord Howe's 30-minute jump skips 2:00 to 2:30", () => {
    const schedule: WeeklySchedule = { timezone: "Australia/Lord_Howe", slots: [{ weekday: "sunday", start_local: "01:00", end_local: "04:00" }] };
    const local = bookableStarts({ schedule, lengthMinutes: 30, busy: [], now: "2026-09-20T00:00:00Z", from: "2026-10-03T12:00:00Z", to: "2026-10-04T12:00:00Z" }).map((t) =>
      DateTime.fromISO(t, { zone: "Australia/Lord_Howe" }).toFormat("HH:mm"),
    );
    expect(local).toEqual(["01:00", "01:30", "02:30", "03:00", "03:30"]);
  });
  it("an unknown zone offers nothing rather than failing", () => {
    expect(bookableStarts({ schedule: { timezone: "Nowhere/Land", slots: [{ weekday: "monday", start_local: "09:00", end_local: "10:00" }] }, lengthMinutes: 30, busy: [], now })).toEqual([]);
  });
});

it("a full-time London schedule offers 15 one-hour starts a day across all 28 days, over the DST change", () => {
  const schedule: WeeklySchedule = { timezone: "Europe/London", slots: WEEKDAYS.map((weekday) => ({ weekday, start_local: "09:00", end_local: "17:00" })) };
  const starts = bookableStarts({ schedule, lengthMinutes: 60, busy: [], now: "2026-03-02T00:00:00Z" });
  expect(starts.length).toBe(28 * 15);
  expect(DateTime.fromISO(starts.at(-1)!, { zone: "Europe/London" }).toFormat("yyyy-MM-dd HH:mm ZZ")).toBe("2026-03-29 16:00 +01:00");
});
