import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { CalendarCommand, CalendarEvent } from "@booking/contracts";
import { calendarDecider, evolveCalendar, initialCalendarState, type CalendarState } from "../../src/calendar/calendar.ts";
import {
  CALENDAR_SNAPSHOT_SHAPE,
  CLOSED_AFTER_DAYS,
  closeBooks,
  decodeCalendar,
  encodeCalendar,
  isClosed,
  needsWholeCalendar,
} from "../../src/calendar/calendar-snapshot.ts";
import { ADMIN, CREATOR, EXPERT, EXPERT_ID, NOW, PRICE, SYSTEM, requestBooking, scheduleSet } from "./calendar-fixtures.ts";

// A calendar from a snapshot (its open bookings, the closed ones' ids in a filter) and the events
// after it decides every command as the whole stream does, or says it needs the whole stream.

const DAY = 86_400_000;
const at = (ms: number) => new Date(ms).toISOString();

/** A day's step in a calendar's life: which booking (by number) it touches, and what is done. */
const stepArb = fc.record({
  days: fc.integer({ min: 0, max: 8 }),
  booking: fc.integer({ min: 0, max: 20 }),
  aheadDays: fc.integer({ min: 1, max: 20 }),
  hour: fc.integer({ min: 9, max: 15 }),
  action: fc.constantFrom("request", "pay", "confirm", "cancel", "complete", "notes", "refund", "expire"),
});

function commandFor(step: { booking: number; aheadDays: number; hour: number; action: string }, now: number): CalendarCommand {
  const on = { expertId: EXPERT_ID, bookingId: `b${step.booking}` };
  switch (step.action) {
    case "request": {
      const day = new Date(now + step.aheadDays * DAY);
      day.setUTCHours(step.hour, 0, 0, 0);
      return requestBooking({ bookingId: on.bookingId, scheduledTime: day.toISOString(), creatorBookings: [] });
    }
    case "pay":
      return {
        type: "RecordPayment",
        ...on,
        actor: SYSTEM,
        paymentId: `pi-${step.booking}-${step.hour}`,
        amountCents: PRICE,
        provider: "test",
      };
    case "confirm":
      return { type: "ConfirmBooking", ...on, actor: EXPERT };
    case "cancel":
      return { type: "CancelBooking", ...on, actor: CREATOR, reason: "" };
    case "complete":
      return { type: "CompleteBooking", ...on, actor: SYSTEM };
    case "notes":
      return { type: "AddNotes", ...on, actor: EXPERT, notes: { summary: "s", recap: "", takeaways: [], suggestedActions: [] } };
    case "refund":
      return { type: "RefundBooking", ...on, actor: ADMIN, amountCents: 100, reason: "goodwill" };
    default:
      return { type: "ExpireHold", ...on, actor: SYSTEM };
  }
}

type Life = { events: CalendarEvent[]; nows: number[] };

/** Runs the steps through the decider on the whole state, as the store would record them. */
function live(steps: { days: number; booking: number; aheadDays: number; hour: number; action: string }[]): Life {
  let now = Date.parse(NOW);
  let state = evolveCalendar(initialCalendarState(), [scheduleSet]);
  const events: CalendarEvent[] = [scheduleSet];
  const nows = [now];
  for (const step of steps) {
    now += step.days * DAY;
    const r = calendarDecider.decide(commandFor(step, now), state, { now: at(now) });
    if (!r.ok) continue;
    state = evolveCalendar(state, r.value);
    events.push(...r.value);
    nows.push(...r.value.map(() => now));
  }
  return { events, nows };
}

const viaSnapshot = (events: CalendarEvent[], split: number, now: string): CalendarState => {
  const json = JSON.parse(JSON.stringify(encodeCalendar(evolveCalendar(initialCalendarState(), events.slice(0, split)), now))) as unknown;
  return evolveCalendar(decodeCalendar(json), events.slice(split));
};

describe("calendar snapshots", () => {
  it("decide every command as the whole stream does, or ask for it", () => {
    let closedSeen = 0;
    fc.assert(
      fc.property(
        fc.array(stepArb, { minLength: 60, maxLength: 160 }),
        fc.double({ min: 0, max: 1, noNaN: true }),
        fc.array(stepArb, { minLength: 10, maxLength: 30 }),
        (steps, where, probes) => {
          const { events, nows } = live(steps);
          // The snapshot is written late in the calendar's life, when early bookings have closed.
          const split = Math.max(1, Math.floor((0.5 + where / 2) * events.length));
          const whole = evolveCalendar(initialCalendarState(), events);
          const partial = viaSnapshot(events, split, at(nows[split - 1]!));
          const now = nows.at(-1)! + DAY;
          let wholeNeeded = 0;
          for (const probe of probes) {
            const command = commandFor(probe, now);
            if (needsWholeCalendar(command, partial)) {
              wholeNeeded++;
              continue;
            }
            expect(calendarDecider.decide(command, partial, { now: at(now) })).toEqual(
              calendarDecider.decide(command, whole, { now: at(now) }),
            );
          }
          // Open bookings are all there, as the whole fold has them; only bookings closed when the snapshot was written are left out.
          const atSnapshot = evolveCalendar(initialCalendarState(), events.slice(0, split));
          for (const [id, b] of whole.bookings) {
            if (partial.bookings.has(id)) expect(partial.bookings.get(id)).toEqual(b);
            else expect(isClosed(atSnapshot.bookings.get(id)!, at(nows[split - 1]!))).toBe(true);
          }
          closedSeen += partial.leftOut?.count ?? 0;
          return wholeNeeded <= probes.length;
        },
      ),
      { numRuns: 150 },
    );
    // The runs did leave bookings out (else they would prove nothing).
    expect(closedSeen).toBeGreaterThan(100);
  });

  it("leave out a booking closed for 30 days, and send a command about it to the whole stream", () => {
    const start = Date.parse(NOW);
    const { events } = live([
      { days: 0, booking: 1, aheadDays: 1, hour: 10, action: "request" },
      { days: 0, booking: 1, aheadDays: 1, hour: 10, action: "pay" },
      { days: 0, booking: 1, aheadDays: 1, hour: 10, action: "confirm" },
      { days: 0, booking: 2, aheadDays: 2, hour: 10, action: "request" },
    ]);
    const state = evolveCalendar(initialCalendarState(), [...events, { type: "Completed", data: { bookingId: "b1" } }]);
    const before = closeBooks(state, at(start + (CLOSED_AFTER_DAYS + 1) * DAY));
    expect([...before.bookings.keys()]).toEqual(["b1", "b2"]);
    const after = decodeCalendar(JSON.parse(JSON.stringify(encodeCalendar(state, at(start + (CLOSED_AFTER_DAYS + 3) * DAY)))));
    expect([...after.bookings.keys()]).toEqual(["b2"]);
    const notes = commandFor({ booking: 1, aheadDays: 0, hour: 0, action: "notes" }, start);
    expect(needsWholeCalendar(notes, after)).toBe(true);
    expect(needsWholeCalendar(requestBooking({ bookingId: "b1" }), after)).toBe(true);
    expect(needsWholeCalendar(requestBooking({ bookingId: "b-new" }), after)).toBe(false);
    expect(needsWholeCalendar(notes, state)).toBe(false);
  });

  it("are written under a shape that names every field of the state and of a booking", () => {
    for (const field of ["bookings", "leftOut", "timeOff", "paidCents", "refundKeys", "rescheduleTo", "joinLink"])
      expect(CALENDAR_SNAPSHOT_SHAPE).toContain(field);
  });
});
