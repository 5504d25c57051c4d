import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { Actor, CalendarCommand, CalendarEvent } from "@booking/contracts";
import { bookingHistory, changedFields, stepAt, type RecordedCalendarEvent } from "../../src/calendar/booking-history.ts";
import { calendarDecider, type Booking } from "../../src/calendar/calendar.ts";
import { recordedStream } from "./recorded-stream.ts";
import {
  ADMIN,
  BOOKING,
  CREATOR,
  EXPERT,
  EXPERT_ID,
  OTHER_CREATOR,
  PRICE,
  SYSTEM,
  T1,
  commands,
  requestBooking,
  scheduleSet,
} from "./calendar-fixtures.ts";

// A booking as of each event of its history: the engine's own fold of the stream up to it, with
// what the console reads besides (prep answers, notes, who cancelled and why...).

const on = { expertId: EXPERT_ID, bookingId: BOOKING };
const at = (hhmm: string) => `2026-03-02T${hhmm}:00.000Z`;

const B2 = "b2";
/** b1's whole life, with another creator's booking (b2, an unpaid hold that runs out) between its events. */
const scenario = recordedStream(at("07:00"), [
  [at("08:00"), requestBooking({ bookingId: BOOKING, scheduledTime: T1 })],
  [at("08:01"), requestBooking({ bookingId: B2, actor: OTHER_CREATOR })],
  [at("08:05"), commands.recordPayment("pi_1")],
  [at("08:10"), commands.requestInfo()],
  [at("08:16"), { type: "ExpireHold", expertId: EXPERT_ID, bookingId: B2, actor: SYSTEM }],
  [at("08:20"), commands.submitPrep()],
  [at("08:30"), commands.proposeTime(EXPERT, "2026-03-05T14:30:00.000Z")],
  [at("08:40"), commands.confirm(CREATOR)],
  [at("09:00"), commands.addNotes()],
  [at("09:10"), { type: "RequestReschedule", ...on, actor: CREATOR, scheduledTime: "2026-03-06T10:00:00.000Z", creatorBookings: [] }],
  [at("09:20"), { type: "DeclineReschedule", ...on, actor: EXPERT, reason: "Fully booked that day" }],
  [at("09:30"), { type: "CancelBooking", ...on, actor: EXPERT, reason: "Sick" }],
  [
    at("09:40"),
    { type: "RecordRefund", ...on, actor: SYSTEM, refundKey: "owed-1", refundId: "re_1", amountCents: PRICE, provider: "test" },
  ],
]);

const ENGINE_FIELDS = Object.keys(
  calendarDecider.evolve(calendarDecider.initialState(), [scheduleSet, scenario[1]!.event]).bookings.get(BOOKING)!,
) as (keyof Booking)[];
const engineFields = (b: object | null) =>
  b ? Object.fromEntries(ENGINE_FIELDS.map((f) => [f, (b as Record<string, unknown>)[f]])) : null;
/** An independent recomputation: the stream's first `n` events folded one at a time from nothing. */
const foldedPrefix = (stream: readonly RecordedCalendarEvent[], n: number) =>
  stream
    .slice(0, n)
    .reduce((state, r) => calendarDecider.evolve(state, [r.event]), calendarDecider.initialState())
    .bookings.get(BOOKING) ?? null;

describe("a booking as of each event", () => {
  const steps = bookingHistory(scenario, BOOKING);

  it("has one step per event naming the booking, in stream order, and none for the schedule or the other booking", () => {
    expect(steps.map((s) => s.event.type)).toEqual([
      "BookingRequested",
      "PaymentSucceeded",
      "InfoRequested",
      "PrepSubmitted",
      "TimeProposed",
      "Confirmed",
      "NotesAdded",
      "RescheduleRequested",
      "RescheduleDeclined",
      "Cancelled",
      "RefundIssued",
    ]);
    expect(steps.map((s) => scenario[s.index]!.event)).toEqual(steps.map((s) => s.event));
  });

  it("equals the engine's fold of the stream up to and including the event, and the booking before equals the fold up to the one before", () => {
    for (const step of steps) {
      expect(engineFields(step.after), step.event.type).toEqual(foldedPrefix(scenario, step.index + 1));
      expect(engineFields(step.before), step.event.type).toEqual(foldedPrefix(scenario, step.index));
    }
  });

  it("carries what only the console reads, as of each event", () => {
    const after = (type: string) => steps.find((s) => s.event.type === type)!.after!;
    expect(after("BookingRequested")).toMatchObject({
      status: "pending",
      paidCents: 0,
      paymentIds: [],
      prepQuestions: ["What is your goal?", "Where are you now?", "What blocks you?"],
      prepAnswers: null,
      holdsTime: true,
    });
    expect(after("PaymentSucceeded")).toMatchObject({ status: "pending", paidCents: PRICE, paymentIds: ["pi_1"] });
    expect(after("InfoRequested")).toMatchObject({ status: "more_info_requested", infoRequestNote: "What niche are you in?" });
    expect(after("PrepSubmitted")).toMatchObject({ status: "pending", prepAnswers: ["Grow", "Stuck at 10k", "Time"] });
    expect(after("TimeProposed")).toMatchObject({ status: "time_proposed", scheduledTime: "2026-03-05T14:30:00.000Z", previousTime: T1 });
    expect(after("Confirmed")).toMatchObject({ status: "confirmed", confirmedAt: at("08:40"), notes: null });
    expect(after("NotesAdded").notes).toEqual({ summary: "Good call", recap: "", takeaways: ["Post daily"], suggestedActions: [] });
    expect(after("RescheduleRequested")).toMatchObject({
      rescheduleTo: "2026-03-06T10:00:00.000Z",
      rescheduleHeld: "2026-03-06T10:00:00.000Z",
      rescheduleRequestedAt: at("09:10"),
    });
    expect(after("RescheduleDeclined")).toMatchObject({
      rescheduleTo: null,
      rescheduleHeld: null,
      rescheduleRequestedAt: null,
      scheduledTime: "2026-03-05T14:30:00.000Z",
    });
    expect(after("Cancelled")).toMatchObject({
      status: "cancelled",
      cancelledBy: "expert",
      cancelReason: "Sick",
      cancelledAt: at("09:30"),
      owedCents: PRICE,
      refundedCents: 0,
      holdsTime: false,
    });
    expect(after("RefundIssued")).toMatchObject({ owedCents: PRICE, refundedCents: PRICE, refundKeys: ["owed-1"] });
  });

  it("says what each event changed, field by field, and nothing else", () => {
    const changes = (type: string) =>
      Object.fromEntries(steps.find((s) => s.event.type === type)!.changes.map((c) => [c.field, [c.before, c.after]]));
    expect(changes("PaymentSucceeded")).toEqual({ paidCents: [0, PRICE], paymentIds: [[], ["pi_1"]], respondBy: [null, T1] });
    expect(changes("InfoRequested")).toEqual({
      status: ["pending", "more_info_requested"],
      infoRequestNote: [null, "What niche are you in?"],
    });
    expect(changes("TimeProposed")).toEqual({
      status: ["pending", "time_proposed"],
      scheduledTime: [T1, "2026-03-05T14:30:00.000Z"],
      previousTime: [null, T1],
    });
    expect(changes("Cancelled")).toEqual({
      status: ["confirmed", "cancelled"],
      owedCents: [0, PRICE],
      cancelledBy: [null, "expert"],
      cancelReason: [null, "Sick"],
      cancelledAt: [null, at("09:30")],
      holdsTime: [true, false],
    });
    // Requested: every field with a value is new.
    const first = steps[0]!;
    expect(first.before).toBeNull();
    const valued = Object.entries(first.after!)
      .filter(([, v]) => v !== null)
      .map(([k]) => k);
    expect(first.changes.map((c) => c.field).sort()).toEqual(valued.sort());
  });

  it("reads whether the booking held its time at the event's own time: an unpaid hold runs out", () => {
    const late = recordedStream(at("07:00"), [
      [at("08:00"), requestBooking({ bookingId: BOOKING, scheduledTime: T1 })],
      [at("08:30"), commands.submitPrep()],
    ]);
    const [requested, prep] = bookingHistory(late, BOOKING);
    expect(requested!.after!.holdsTime).toBe(true);
    // At 08:30 the 15-minute hold is over: before and after the prep answers alike.
    expect(prep!.before!.holdsTime).toBe(false);
    expect(prep!.changes.map((c) => c.field)).toEqual(["prepAnswers"]);
  });

  it("follows an event it does not know (one added to the engine later): a step with no change, and the fold goes on", () => {
    const unknown = { type: "SomethingNew", data: { bookingId: BOOKING, detail: 1 } } as unknown as CalendarEvent;
    const elsewhere = { type: "SomethingElse", data: { expertId: EXPERT_ID } } as unknown as CalendarEvent;
    const stream = [
      ...scenario.slice(0, 4),
      { event: unknown, at: at("08:06") },
      { event: elsewhere, at: at("08:07") },
      ...scenario.slice(4),
    ];
    const steps = bookingHistory(stream, BOOKING);
    const odd = steps.find((s) => s.event === unknown)!;
    expect(odd.changes).toEqual([]);
    expect(odd.after).toEqual(odd.before);
    expect(steps.at(-1)!.after).toEqual(bookingHistory(scenario, BOOKING).at(-1)!.after);
  });

  it("finds the step as of an instant: the last event recorded at or before it", () => {
    expect(stepAt(steps, at("07:59"))).toBeNull();
    expect(stepAt(steps, at("08:00"))!.event.type).toBe("BookingRequested");
    expect(stepAt(steps, at("08:09"))!.event.type).toBe("PaymentSucceeded");
    expect(stepAt(steps, at("08:16"))!.event.type).toBe("InfoRequested"); // b2's expiry is not b1's
    expect(stepAt(steps, "2030-01-01T00:00:00.000Z")!.event.type).toBe("RefundIssued");
  });

  it("has no history for a booking the stream never names", () => {
    expect(bookingHistory(scenario, "nope")).toEqual([]);
  });
});

describe("changed fields", () => {
  it("compares values deeply, and counts a field only one side has", () => {
    expect(changedFields({ a: [1, 2], b: { c: 1 }, d: 1 }, { a: [1, 2], b: { c: 2 }, e: 1 })).toEqual([
      { field: "b", before: { c: 1 }, after: { c: 2 } },
      { field: "d", before: 1, after: null },
      { field: "e", before: null, after: 1 },
    ]);
    expect(changedFields(null, null)).toEqual([]);
  });
});

describe("a booking as of each event (property)", () => {
  const actors: Actor[] = [CREATOR, EXPERT, ADMIN, SYSTEM];
  let payments = 0;
  const commandArb: fc.Arbitrary<() => CalendarCommand> = fc.oneof(
    fc.constantFrom(
      () => commands.recordPayment(`pi_${++payments}`),
      () => commands.submitPrep(),
      () => commands.requestInfo(),
      () => commands.proposeTime(),
      () => commands.expireHold(),
      () => commands.addNotes(),
      () => ({ type: "RefundBooking", ...on, actor: ADMIN, amountCents: 100, reason: "Goodwill" }) as CalendarCommand,
      () => ({ type: "AcceptReschedule", ...on, actor: EXPERT }) as CalendarCommand,
      () => ({ type: "WithdrawReschedule", ...on, actor: CREATOR }) as CalendarCommand,
      () =>
        ({
          type: "RequestReschedule",
          ...on,
          actor: CREATOR,
          scheduledTime: "2026-03-06T11:00:00.000Z",
          creatorBookings: [],
        }) as CalendarCommand,
      () =>
        ({
          type: "RecordRefund",
          ...on,
          actor: SYSTEM,
          refundKey: "k",
          refundId: "re",
          amountCents: 100,
          provider: "test",
        }) as CalendarCommand,
      () => requestBooking({ bookingId: B2, actor: OTHER_CREATOR }),
      () => ({ type: "CancelBooking", expertId: EXPERT_ID, bookingId: B2, actor: OTHER_CREATOR, reason: "" }) as CalendarCommand,
    ),
    fc.constantFrom(...actors).map((actor) => () => commands.confirm(actor)),
    fc.constantFrom(...actors).map((actor) => () => commands.cancel(actor)),
  );

  it("after every event, the booking equals the engine's fold of the stream up to it, whatever was decided", () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(commandArb, fc.integer({ min: 0, max: 90 })), { maxLength: 25 }), (draws) => {
        let state = calendarDecider.evolve(calendarDecider.initialState(), [scheduleSet]);
        const stream: RecordedCalendarEvent[] = [{ event: scheduleSet, at: at("07:00") }];
        let minute = 0;
        for (const [make, gap] of [[() => requestBooking({ bookingId: BOOKING, scheduledTime: T1 }), 0] as const, ...draws]) {
          minute += gap;
          const now = new Date(Date.parse(at("08:00")) + minute * 60_000).toISOString();
          const result = calendarDecider.decide(make(), state, { now });
          if (!result.ok) continue;
          state = calendarDecider.evolve(state, result.value);
          stream.push(...result.value.map((event) => ({ event, at: now })));
        }
        const steps = bookingHistory(stream, BOOKING);
        for (const step of steps) expect(engineFields(step.after)).toEqual(foldedPrefix(stream, step.index + 1));
        expect(engineFields(steps.at(-1)!.after)).toEqual(state.bookings.get(BOOKING));
      }),
      { numRuns: 200 },
    );
  });
});
