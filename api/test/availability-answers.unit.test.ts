import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { BUFFER_OPTIONS_MINUTES, SESSION_LENGTHS_MINUTES, WEEKDAYS, type BookingRules, type WeeklySchedule } from "@booking/contracts";
import { bookableStarts, type AvailabilityQuery, type BusyPeriod } from "@booking/engine";
import { AvailabilityAnswers } from "../src/availability/availability-answers.ts";

// The availability route answers from remembered answers. Over random calendars and random runs
// of questions (the clock moving by anything from a millisecond to hours, bookings coming and
// going, the expert changing hours, time off or rules, other lengths and ranges), every answer
// must be the one computed afresh.

const MINUTE = 60_000;
const hhmm = (m: number) => `${String(Math.floor(m / 60)).padStart(2, "0")}:${String(m % 60).padStart(2, "0")}`;
const half = (t: number) => Math.floor(t / (30 * MINUTE)) * 30 * MINUTE;

const slotsArb = fc.array(
  fc.record({ weekday: fc.constantFrom(...WEEKDAYS), start: fc.integer({ min: 0, max: 46 }), span: fc.integer({ min: 1, max: 20 }) }),
  { minLength: 1, maxLength: 5 },
);
const rulesArb: fc.Arbitrary<BookingRules> = fc.record({
  bufferBeforeMinutes: fc.constantFrom(...BUFFER_OPTIONS_MINUTES),
  bufferAfterMinutes: fc.constantFrom(...BUFFER_OPTIONS_MINUTES),
  minNoticeHours: fc.constantFrom(0, 1, 5, 48),
});

/** Now and then: `x` in one step out of `every`. */
const sometimes = <T>(x: fc.Arbitrary<T>, every: number) =>
  fc.oneof({ arbitrary: fc.constant(undefined), weight: every - 1 }, { arbitrary: x, weight: 1 });

const stepArb = fc.record({
  /** How far the clock moves: often within the same minute or 15-minute step, sometimes hours. */
  advanceMs: fc.oneof(
    fc.integer({ min: 0, max: 999 }),
    fc.integer({ min: 0, max: 20 * MINUTE }),
    fc.integer({ min: 0, max: 6 * 60 * MINUTE }),
  ),
  /** The expert changes the calendar (a new version): new weekly hours, time off or rules. */
  change: sometimes(
    fc.record({ slots: slotsArb, timeOffAt: fc.option(fc.integer({ min: 0, max: 28 * 48 }), { nil: undefined }), rules: rulesArb }),
    6,
  ),
  /** A booking made (minutes from now, length) or the oldest one ending (cancelled, expired). */
  book: sometimes(
    fc.record({ minutes: fc.integer({ min: -120, max: 28 * 24 * 60 }), length: fc.constantFrom(...SESSION_LENGTHS_MINUTES) }),
    3,
  ),
  free: fc.oneof({ arbitrary: fc.constant(false), weight: 3 }, { arbitrary: fc.constant(true), weight: 1 }),
  // Mostly the same question again, as a page's visitors ask it.
  lengthMinutes: fc.oneof({ arbitrary: fc.constant(60), weight: 4 }, { arbitrary: fc.constantFrom(...SESSION_LENGTHS_MINUTES), weight: 1 }),
  range: sometimes(fc.record({ fromDays: fc.integer({ min: 0, max: 27 }), days: fc.integer({ min: 0, max: 3 }) }), 4),
  calendar: fc.oneof({ arbitrary: fc.constant("calendar-a"), weight: 4 }, { arbitrary: fc.constant("calendar-b"), weight: 1 }),
});

const runArb = fc.record({
  zone: fc.constantFrom("Europe/London", "America/New_York", "Australia/Lord_Howe", "Asia/Kathmandu", "UTC"),
  start: fc.integer({ min: Date.parse("2026-01-01T00:00:00Z"), max: Date.parse("2026-12-01T00:00:00Z") }),
  slots: slotsArb,
  rules: rulesArb,
  steps: fc.array(stepArb, { minLength: 1, maxLength: 40 }),
  size: fc.constantFrom(1, 3, 100),
});

describe("remembered availability answers", () => {
  it("equal the answer computed afresh, whatever moved between two questions", () => {
    fc.assert(
      fc.property(runArb, (run) => {
        const answers = new AvailabilityAnswers(run.size);
        let now = run.start;
        let version = 1;
        let schedule: WeeklySchedule = { timezone: run.zone, slots: [] };
        const setSlots = (slots: typeof run.slots) => {
          schedule = {
            timezone: run.zone,
            slots: slots.map((s) => ({
              weekday: s.weekday,
              start_local: hhmm(s.start * 30),
              end_local: hhmm(Math.min(s.start * 30 + s.span * 30, 23 * 60 + 30)),
            })),
          };
        };
        setSlots(run.slots);
        let rules = run.rules;
        let timeOff: { start: string; end: string }[] = [];
        let busy: BusyPeriod[] = [];
        for (const step of run.steps) {
          now += step.advanceMs;
          if (step.change) {
            version++;
            setSlots(step.change.slots);
            rules = step.change.rules;
            const at = step.change.timeOffAt;
            if (at !== undefined)
              timeOff = [
                ...timeOff,
                {
                  start: new Date(half(now) + at * 30 * MINUTE).toISOString().slice(0, 16),
                  end: new Date(half(now) + (at + 8) * 30 * MINUTE).toISOString().slice(0, 16),
                },
              ];
          }
          if (step.book)
            busy = [
              ...busy,
              {
                start: new Date(half(now) + Math.round(step.book.minutes / 30) * 30 * MINUTE).toISOString(),
                lengthMinutes: step.book.length,
              },
            ];
          if (step.free) busy = busy.slice(1);
          const iso = new Date(now).toISOString();
          const query: AvailabilityQuery = {
            schedule,
            timeOff,
            rules,
            lengthMinutes: step.lengthMinutes,
            busy,
            now: iso,
            ...(step.range && {
              from: new Date(run.start + step.range.fromDays * 86_400_000).toISOString(),
              to: new Date(run.start + (step.range.fromDays + step.range.days) * 86_400_000).toISOString(),
            }),
          };
          expect(answers.times({ calendar: step.calendar, version, query })).toEqual(bookableStarts(query));
        }
      }),
      { numRuns: 150 },
    );
  });

  it("answers a repeated question from memory, and computes again once the calendar's version moves", () => {
    const answers = new AvailabilityAnswers();
    const query: AvailabilityQuery = {
      schedule: { timezone: "UTC", slots: [{ weekday: "monday", start_local: "09:00", end_local: "12:00" }] },
      lengthMinutes: 60,
      busy: [],
      now: "2026-03-02T08:00:01.000Z",
    };
    answers.times({ calendar: "c", version: 3, query });
    answers.times({ calendar: "c", version: 3, query: { ...query, now: "2026-03-02T08:00:59.000Z" } });
    expect(answers.stats).toEqual({ hits: 1, misses: 1 });
    answers.times({ calendar: "c", version: 4, query });
    expect(answers.stats).toEqual({ hits: 1, misses: 2 });
  });
});
