import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { BUFFER_OPTIONS_MINUTES, SESSION_LENGTHS_MINUTES, WEEKDAYS, type WeeklySchedule } from "@booking/contracts";
import { bookableStarts } from "../../src/availability/availability.ts";
import * as reference from "./availability-reference.ts";

// The availability module remembers luxon's answers (local dates, wall-clock times to instants)
// process-wide. Its answers must be exactly those of the module before it did, for any zone,
// schedule, extra hours, time off, bookings, notice, "now" and narrowed range.

const MINUTE = 60_000;
const hhmm = (m: number) => `${String(Math.floor(m / 60)).padStart(2, "0")}:${String(m % 60).padStart(2, "0")}`;
// DST at midnight (Santiago, Havana), 30-minute DST (Lord Howe), a 45-minute offset (Chatham, Kathmandu), none (UTC), and a name luxon does not know.
const zones = [
  "Europe/London",
  "America/New_York",
  "America/Santiago",
  "America/Havana",
  "Australia/Lord_Howe",
  "Pacific/Chatham",
  "Asia/Kathmandu",
  "UTC",
  "Mars/Olympus",
];
// Around every DST change of 2026 in those zones, and between them.
const nows = fc
  .integer({ min: Date.parse("2026-01-01T00:00:00Z"), max: Date.parse("2026-12-31T00:00:00Z") })
  .map((t) => new Date(t).toISOString());

const localDateTime = (t: number) => new Date(t).toISOString().slice(0, 16);

const caseArb = fc.record({
  zone: fc.constantFrom(...zones),
  now: nows,
  slots: fc.array(
    fc.record({ weekday: fc.constantFrom(...WEEKDAYS), start: fc.integer({ min: 0, max: 46 }), span: fc.integer({ min: 1, max: 20 }) }),
    { minLength: 1, maxLength: 6 },
  ),
  lengthMinutes: fc.constantFrom(...SESSION_LENGTHS_MINUTES),
  busy: fc.array(
    fc.record({ minutes: fc.integer({ min: -240, max: 28 * 24 * 60 }), length: fc.constantFrom(...SESSION_LENGTHS_MINUTES) }),
    { maxLength: 8 },
  ),
  timeOff: fc.array(
    fc.record({ minutes: fc.integer({ min: -2 * 24 * 60, max: 30 * 24 * 60 }), halfHours: fc.integer({ min: 1, max: 5 * 48 }) }),
    { maxLength: 3 },
  ),
  overrides: fc.array(
    fc.record({ day: fc.integer({ min: 0, max: 29 }), start: fc.integer({ min: 0, max: 46 }), span: fc.integer({ min: 1, max: 12 }) }),
    { maxLength: 3 },
  ),
  rules: fc.record({
    bufferBeforeMinutes: fc.constantFrom(...BUFFER_OPTIONS_MINUTES),
    bufferAfterMinutes: fc.constantFrom(...BUFFER_OPTIONS_MINUTES),
    minNoticeHours: fc.constantFrom(0, 0, 5, 48),
  }),
  range: fc.option(fc.record({ fromDays: fc.integer({ min: -2, max: 27 }), days: fc.integer({ min: 0, max: 10 }) }), { nil: undefined }),
});

function queryOf(c: typeof caseArb extends fc.Arbitrary<infer T> ? T : never) {
  const now = Date.parse(c.now);
  const half = (t: number) => Math.floor(t / (30 * MINUTE)) * 30 * MINUTE;
  const schedule: WeeklySchedule = {
    timezone: c.zone,
    slots: c.slots.map((s) => ({
      weekday: s.weekday,
      start_local: hhmm(s.start * 30),
      end_local: hhmm(Math.min(s.start * 30 + s.span * 30, 23 * 60 + 30)),
    })),
  };
  return {
    schedule,
    lengthMinutes: c.lengthMinutes,
    busy: c.busy.map((b) => ({ start: new Date(now + Math.round(b.minutes / 15) * 15 * MINUTE).toISOString(), lengthMinutes: b.length })),
    // Written as wall-clock strings, as time off is: these read the UTC digits as local ones, which is all a rule sees.
    timeOff: c.timeOff.map((o) => ({
      start: localDateTime(half(now + o.minutes * MINUTE)),
      end: localDateTime(half(now + o.minutes * MINUTE) + o.halfHours * 30 * MINUTE),
    })),
    dateOverrides: c.overrides.map((o) => ({
      date: new Date(now + o.day * 86_400_000).toISOString().slice(0, 10),
      start_local: hhmm(o.start * 30),
      end_local: hhmm(Math.min(o.start * 30 + o.span * 30, 23 * 60 + 30)),
    })),
    rules: c.rules,
    now: c.now,
    ...(c.range && {
      from: new Date(now + c.range.fromDays * 86_400_000).toISOString(),
      to: new Date(now + (c.range.fromDays + c.range.days) * 86_400_000 + 7 * 3_600_000).toISOString(),
    }),
  };
}

describe("availability, remembering luxon's answers", () => {
  it("lists exactly the bookable starts the module before it listed", () => {
    fc.assert(
      fc.property(caseArb, (c) => {
        const q = queryOf(c);
        // Twice: the second answer comes from what the first remembered.
        expect(bookableStarts(q)).toEqual(reference.bookableStarts(q));
        expect(bookableStarts(q)).toEqual(reference.bookableStarts(q));
      }),
      { numRuns: 400 },
    );
  });
});
