import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  BookingStatus,
  RESCHEDULE_NOTICE_HOURS,
  type Actor,
  type CalendarCommand,
  type CalendarEvent,
  type CreatorBookingFacts,
} from "@booking/contracts";
import { bookableStarts } from "../../src/availability/availability.ts";
import { blocksTime, busyPeriods, calendarDecider, expertHours, openReschedule, type CalendarState } from "../../src/calendar/calendar.ts";
import { deciderSpec } from "./decider-spec.ts";
import { STATUS_WORDS } from "../../src/calendar/decision-rules.ts";
import {
  ADMIN,
  BOOKING,
  CREATOR,
  EXPERT,
  EXPERT_ID,
  NOW,
  OTHER_CREATOR,
  OTHER_EXPERT,
  PRICE,
  T1,
  bookingIn,
  commands,
  paid,
  requestBooking,
  requested,
  scheduleSet,
} from "./calendar-fixtures.ts";

// Issue 17 item 3: a creator asks to move a booking, the expert accepts or declines, the creator
// may withdraw. The fixtures' expert works 09:00-17:00 every day in London (GMT); NOW is Monday
// 2 March 08:00, 26 hours before booking b1 (Tuesday 3 March 10:00-11:00, T1).

const spec = deciderSpec(calendarDecider, NOW);
const on = { expertId: EXPERT_ID, bookingId: BOOKING };
const TO = "2026-03-04T13:00:00.000Z"; // Wednesday 13:00 London: free, in open hours
const PROPOSED = "2026-03-04T09:00:00.000Z"; // the time the expert proposes in the fixtures' time_proposed booking

const reschedule = (
  over: { actor?: Actor; to?: string; creatorBookings?: CreatorBookingFacts[]; bookingId?: string } = {},
): CalendarCommand => ({
  type: "RequestReschedule",
  ...on,
  bookingId: over.bookingId ?? BOOKING,
  actor: over.actor ?? CREATOR,
  scheduledTime: over.to ?? TO,
  creatorBookings: over.creatorBookings ?? [],
});
const accept = (actor: Actor = EXPERT): CalendarCommand => ({ type: "AcceptReschedule", ...on, actor });
const decline = (actor: Actor = EXPERT, reason = ""): CalendarCommand => ({ type: "DeclineReschedule", ...on, actor, reason });
const withdraw = (actor: Actor = CREATOR): CalendarCommand => ({ type: "WithdrawReschedule", ...on, actor });

const moveData = (to = TO, by: "creator" | "expert" | "admin" = "creator", from = T1) => ({ bookingId: BOOKING, from, to, by });
const rescheduleRequested = (to = TO, from = T1): CalendarEvent => ({ type: "RescheduleRequested", data: moveData(to, "creator", from) });
const cancelled = (by: "creator" | "expert" = "creator"): CalendarEvent => ({
  type: "Cancelled",
  data: { bookingId: BOOKING, by, reason: "", refundCents: PRICE },
});

const stateOf = (events: readonly CalendarEvent[]) => calendarDecider.evolve(calendarDecider.initialState(), events);
const after = (given: readonly CalendarEvent[], c: CalendarCommand, now = NOW): CalendarState => {
  const state = stateOf(given);
  const r = calendarDecider.decide(c, state, { now });
  if (!r.ok) throw new Error(`${c.type}: ${r.refusal.code}`);
  return calendarDecider.evolve(state, r.value);
};
/** Another creator's new booking of the 60-minute session at `at`: accepted or not. */
const canBook = (given: readonly CalendarEvent[], at: string, now = NOW) =>
  spec(given).when(requestBooking({ actor: OTHER_CREATOR, scheduledTime: at }), now).result.ok;

describe("asking to move a booking, in every state", () => {
  const allowed: BookingStatus[] = ["pending", "more_info_requested", "confirmed", "time_proposed"];
  for (const status of BookingStatus.options) {
    it(`${status}: ${allowed.includes(status) ? "held beside the old time until answered" : "refused"}`, () => {
      const when = spec(bookingIn(status)).when(reschedule());
      // A proposed time is the booking's time: the creator's answer moves from it (issue 27.11).
      if (allowed.includes(status)) when.then([rescheduleRequested(TO, status === "time_proposed" ? PROPOSED : T1)]);
      else when.thenRefused("booking_transition_refused", `This booking is ${STATUS_WORDS[status]} and can no longer be moved.`);
    });
  }
  it("refuses an unpaid request (one hold never keeps two times)", () => {
    spec(bookingIn("pending", false))
      .when(reschedule())
      .thenRefused("reschedule_unpaid", "This booking is not paid yet. Pay for it first, or cancel it and book another time.");
  });
});

describe("who may ask and who answers", () => {
  it("the creator asks; an admin may ask for them", () => {
    spec(bookingIn("confirmed"))
      .when(reschedule({ actor: ADMIN }))
      .then([{ type: "RescheduleRequested", data: moveData(TO, "admin") }]);
  });
  it("the expert cannot ask, another creator is no party", () => {
    spec(bookingIn("confirmed"))
      .when(reschedule({ actor: EXPERT }))
      .thenRefused("reschedule_creator_only", "Only the creator of this booking can ask to move it or withdraw that request.");
    spec(bookingIn("confirmed"))
      .when(reschedule({ actor: OTHER_CREATOR }))
      .thenRefused("not_booking_party");
  });
  const open = [...bookingIn("confirmed"), rescheduleRequested()];
  it("the expert (or an admin) accepts or declines; the creator cannot", () => {
    spec(open)
      .when(accept())
      .then([{ type: "RescheduleAccepted", data: moveData(TO, "expert") }]);
    spec(open)
      .when(accept(ADMIN))
      .then([{ type: "RescheduleAccepted", data: moveData(TO, "admin") }]);
    spec(open)
      .when(decline(EXPERT, "Travelling that day"))
      .then([{ type: "RescheduleDeclined", data: { ...moveData(TO, "expert"), reason: "Travelling that day" } }]);
    spec(open)
      .when(accept(CREATOR))
      .thenRefused("reschedule_expert_only", "Only the expert of this booking can accept or decline a request to move it.");
    spec(open).when(decline(CREATOR)).thenRefused("reschedule_expert_only");
  });
  it("the creator (or an admin) withdraws; the expert cannot", () => {
    spec(open)
      .when(withdraw())
      .then([{ type: "RescheduleWithdrawn", data: moveData(TO, "creator") }]);
    spec(open)
      .when(withdraw(ADMIN))
      .then([{ type: "RescheduleWithdrawn", data: moveData(TO, "admin") }]);
    spec(open).when(withdraw(EXPERT)).thenRefused("reschedule_creator_only");
  });
  it("nobody outside the booking answers", () => {
    for (const c of [accept(OTHER_EXPERT), decline(OTHER_EXPERT), withdraw(OTHER_CREATOR)])
      spec(open).when(c).thenRefused("not_booking_party");
  });
  it("with no request open there is nothing to answer", () => {
    for (const c of [accept(), decline(), withdraw()])
      spec(bookingIn("confirmed"))
        .when(c)
        .thenRefused("reschedule_not_requested", "There is no request to move this booking waiting for an answer.");
  });
});

describe("the new time passes the rules of a new booking", () => {
  const confirmedB1 = bookingIn("confirmed");
  it(`is asked at least ${RESCHEDULE_NOTICE_HOURS} hours before the current start`, () => {
    const dayBefore = "2026-03-02T10:00:00.000Z";
    expect(spec(confirmedB1).when(reschedule(), dayBefore).result.ok).toBe(true);
    spec(confirmedB1)
      .when(reschedule(), "2026-03-02T10:00:00.001Z")
      .thenRefused(
        "reschedule_too_late",
        "A booking can be moved until 24 hours before it starts. This one starts sooner: please contact your expert or cancel it instead.",
      );
  });
  it("the current start counts, not the new one: a booking moved later may not be moved again inside the day before it", () => {
    const moved = [
      ...confirmedB1,
      rescheduleRequested("2026-03-10T10:00:00.000Z"),
      { type: "RescheduleAccepted", data: moveData("2026-03-10T10:00:00.000Z", "expert") } as CalendarEvent,
    ];
    expect(spec(moved).when(reschedule({ to: "2026-03-11T10:00:00.000Z" }), "2026-03-08T10:00:00.000Z").result.ok).toBe(true);
    spec(moved)
      .when(reschedule({ to: "2026-03-11T10:00:00.000Z" }), "2026-03-09T12:00:00.000Z")
      .thenRefused("reschedule_too_late");
  });
  it("refuses the time it already has", () => {
    spec(confirmedB1)
      .when(reschedule({ to: T1 }))
      .thenRefused("reschedule_same_time", "The booking is already at that time. Please pick another time.");
  });
  it("refuses times outside open hours, off the half hour, past the window, in time off or inside the notice", () => {
    const unavailable = "That time is not one of the expert's bookable times. Please pick another.";
    spec(confirmedB1)
      .when(reschedule({ to: "2026-03-04T17:00:00.000Z" }))
      .thenRefused("reschedule_time_unavailable", unavailable); // after 17:00 London
    spec(confirmedB1)
      .when(reschedule({ to: "2026-03-04T16:30:00.000Z" }))
      .thenRefused("reschedule_time_unavailable"); // runs past 17:00
    spec(confirmedB1)
      .when(reschedule({ to: "2026-03-04T13:15:00.000Z" }))
      .thenRefused("reschedule_time_unavailable");
    spec(confirmedB1)
      .when(reschedule({ to: "2026-04-01T10:00:00.000Z" }))
      .thenRefused("reschedule_time_unavailable"); // beyond 28 days
    const wednesdayOff: CalendarEvent = {
      type: "TimeOffAdded",
      data: { expertId: EXPERT_ID, timeOffId: "off", start: "2026-03-04T00:00", end: "2026-03-05T00:00", reason: "" },
    };
    spec([...confirmedB1, wednesdayOff])
      .when(reschedule())
      .thenRefused("reschedule_time_unavailable");
    const twoDaysNotice: CalendarEvent = {
      type: "BookingRulesSet",
      data: { expertId: EXPERT_ID, bufferBeforeMinutes: 0, bufferAfterMinutes: 0, minNoticeHours: 72 },
    };
    spec([...confirmedB1, twoDaysNotice])
      .when(reschedule())
      .thenRefused("reschedule_time_unavailable");
    expect(spec([...confirmedB1, twoDaysNotice]).when(reschedule({ to: "2026-03-05T09:00:00.000Z" })).result.ok).toBe(true);
  });
  it("takes extra hours on a date, as a booking does", () => {
    const evening: CalendarEvent = {
      type: "DateOverrideAdded",
      data: { expertId: EXPERT_ID, overrideId: "x", date: "2026-03-04", start_local: "17:00", end_local: "20:00" },
    };
    expect(spec([...confirmedB1, evening]).when(reschedule({ to: "2026-03-04T18:00:00.000Z" })).result.ok).toBe(true);
  });
  it("refuses a time another booking holds, with its buffers", () => {
    const other = [...confirmedB1, requested("b2", "2026-03-04T12:30:00.000Z", OTHER_CREATOR.userId), paid("b2", "pi_b2")];
    spec(other).when(reschedule()).thenRefused("reschedule_time_taken", "That time is already taken. Please pick another.");
    expect(spec(other).when(reschedule({ to: "2026-03-04T13:30:00.000Z" })).result.ok).toBe(true);
    const tenMinutesAfter: CalendarEvent = {
      type: "BookingRulesSet",
      data: { expertId: EXPERT_ID, bufferBeforeMinutes: 0, bufferAfterMinutes: 10, minNoticeHours: 0 },
    };
    spec([...other, tenMinutesAfter])
      .when(reschedule({ to: "2026-03-04T13:30:00.000Z" }))
      .thenRefused("reschedule_time_taken");
  });
  it("refuses a time another booking's open request holds", () => {
    const b2 = [requested("b2", "2026-03-05T10:00:00.000Z", OTHER_CREATOR.userId), paid("b2", "pi_b2")];
    const b2Asks: CalendarEvent = {
      type: "RescheduleRequested",
      data: { bookingId: "b2", from: "2026-03-05T10:00:00.000Z", to: TO, by: "creator" },
    };
    spec([...confirmedB1, ...b2, b2Asks])
      .when(reschedule())
      .thenRefused("reschedule_time_taken");
  });
  it("moves within its own slot: 30 minutes later overlaps only itself", () => {
    spec(confirmedB1)
      .when(reschedule({ to: "2026-03-03T10:30:00.000Z" }))
      .then([rescheduleRequested("2026-03-03T10:30:00.000Z")]);
    const buffers: CalendarEvent = {
      type: "BookingRulesSet",
      data: { expertId: EXPERT_ID, bufferBeforeMinutes: 30, bufferAfterMinutes: 30, minNoticeHours: 0 },
    };
    expect(spec([...confirmedB1, buffers]).when(reschedule({ to: "2026-03-03T09:30:00.000Z" })).result.ok).toBe(true);
  });
  it("refuses a time the creator already has a session at with another expert, counting their held times too", () => {
    const elsewhere: CreatorBookingFacts = {
      bookingId: "other",
      status: "confirmed",
      scheduledTime: "2026-03-04T12:30:00.000Z",
      lengthMinutes: 60,
      heldUntil: NOW,
      priceCents: PRICE,
      paidCents: PRICE,
    };
    spec(confirmedB1)
      .when(reschedule({ creatorBookings: [elsewhere] }))
      .thenRefused("creator_time_overlap", "You already have a session booked at that time. Please pick another time.");
    const heldElsewhere = { ...elsewhere, scheduledTime: "2026-03-20T12:00:00.000Z", rescheduleTo: "2026-03-04T13:30:00.000Z" };
    spec(confirmedB1)
      .when(reschedule({ creatorBookings: [heldElsewhere] }))
      .thenRefused("creator_time_overlap");
    // The booking being moved is among the creator's bookings: it never clashes with itself.
    const itself: CreatorBookingFacts = { ...elsewhere, bookingId: BOOKING, scheduledTime: "2026-03-04T13:00:00.000Z" };
    expect(spec(confirmedB1).when(reschedule({ creatorBookings: [itself] })).result.ok).toBe(true);
  });
});

describe("while a request is open", () => {
  const open = [...bookingIn("confirmed"), rescheduleRequested()];
  it("the old time stays blocked and the new one is held: nobody else books either", () => {
    expect(canBook(open, T1)).toBe(false);
    expect(canBook(open, TO)).toBe(false);
    expect(canBook(open, "2026-03-04T12:30:00.000Z")).toBe(false); // overlaps the held hour
    expect(canBook(open, "2026-03-04T14:00:00.000Z")).toBe(true);
    const offered = bookableStarts({
      ...expertHours(stateOf(open))!,
      lengthMinutes: 60,
      busy: busyPeriods(stateOf(open), NOW),
      now: NOW,
      from: "2026-03-03T09:00:00.000Z",
      to: "2026-03-04T16:00:00.000Z",
    });
    expect(offered).not.toContain(T1);
    expect(offered).not.toContain(TO);
    expect(offered).toContain("2026-03-04T14:00:00.000Z");
  });
  it("a second request on the same booking is refused", () => {
    spec(open)
      .when(reschedule({ to: "2026-03-05T10:00:00.000Z" }))
      .thenRefused(
        "reschedule_already_requested",
        "A request to move this booking is already waiting for the expert. Withdraw it before asking for another time.",
      );
  });
  it("the expert cannot propose yet another time before answering it", () => {
    const pendingOpen = [...bookingIn("pending"), rescheduleRequested()];
    spec(pendingOpen)
      .when(commands.proposeTime())
      .thenRefused("reschedule_pending", "The creator asked to move this booking. Accept or decline that request first.");
  });
  it("the expert may still confirm a pending booking; the request stays open", () => {
    const s = after([...bookingIn("pending"), rescheduleRequested()], commands.confirm());
    expect(s.bookings.get(BOOKING)).toMatchObject({ status: "confirmed", scheduledTime: T1, rescheduleTo: TO });
  });
});

describe("answering", () => {
  it("accepting moves the booking and keeps its status; the old time is free, the new one taken", () => {
    for (const status of ["pending", "more_info_requested", "confirmed"] as const) {
      const open = [...bookingIn(status), rescheduleRequested()];
      const s = after(open, accept());
      expect(s.bookings.get(BOOKING)).toMatchObject({ status, scheduledTime: TO, rescheduleTo: null });
      const moved = [...open, { type: "RescheduleAccepted", data: moveData(TO, "expert") } as CalendarEvent];
      expect(canBook(moved, T1)).toBe(true);
      expect(canBook(moved, TO)).toBe(false);
    }
  });
  it("declining or withdrawing frees the new time; the booking keeps the old", () => {
    const open = [...bookingIn("confirmed"), rescheduleRequested()];
    for (const ended of [
      { type: "RescheduleDeclined", data: { ...moveData(TO, "expert"), reason: "" } },
      { type: "RescheduleWithdrawn", data: moveData(TO, "creator") },
    ] as CalendarEvent[]) {
      const given = [...open, ended];
      expect(stateOf(given).bookings.get(BOOKING)).toMatchObject({ status: "confirmed", scheduledTime: T1, rescheduleTo: null });
      expect(canBook(given, TO)).toBe(true);
      expect(canBook(given, T1)).toBe(false);
      // and the creator may ask again
      expect(spec(given).when(reschedule({ to: "2026-03-05T10:00:00.000Z" })).result.ok).toBe(true);
    }
  });
  it("a request lapses when its new time or the current start comes: it holds nothing, cannot be accepted, and a new one may be asked", () => {
    const earlier = "2026-03-02T09:00:00.000Z"; // Monday 09:00: sooner than the booking
    const open = [...bookingIn("confirmed"), rescheduleRequested(earlier)];
    spec(open)
      .when(accept(), earlier)
      .thenRefused(
        "reschedule_lapsed",
        "This request to move the booking can no longer be accepted: its time has come. Ask for another time instead.",
      );
    spec([...bookingIn("confirmed"), rescheduleRequested()])
      .when(accept(), T1)
      .thenRefused("reschedule_lapsed");
    expect(spec(open).when(accept(), "2026-03-02T08:59:59.999Z").result.ok).toBe(true);
    // A lapsed request can still be withdrawn or declined, which says so in the history.
    expect(spec(open).when(withdraw(), earlier).result.ok).toBe(true);
    // After it lapsed the new time is free again and the creator may ask anew.
    const later = "2026-03-02T09:30:00.000Z";
    expect(spec(open).when(reschedule({ to: "2026-03-05T10:00:00.000Z" }), earlier).result.ok).toBe(true);
    expect(busyPeriods(stateOf(open), later)).toEqual([{ start: T1, lengthMinutes: 60 }]);
  });
  it("a cancelled booking's open request ends with it: nothing to answer, the held time is free", () => {
    for (const by of ["creator", "expert"] as const) {
      const given = [...bookingIn("confirmed"), rescheduleRequested(), cancelled(by)];
      spec(given).when(accept()).thenRefused("reschedule_not_requested");
      spec(given)
        .when(reschedule({ to: "2026-03-05T10:00:00.000Z" }))
        .thenRefused("booking_transition_refused", "This booking is cancelled and can no longer be moved.");
      expect(canBook(given, TO)).toBe(true);
      expect(canBook(given, T1)).toBe(true);
    }
  });
  it("a completed booking's request ends too", () => {
    const given = [...bookingIn("confirmed"), rescheduleRequested(), { type: "Completed", data: { bookingId: BOOKING } } as CalendarEvent];
    expect(stateOf(given).bookings.get(BOOKING)!.rescheduleTo).toBeNull();
  });
});

describe("the creator answers a proposed time with another (issue 27.11)", () => {
  const countered = [...bookingIn("time_proposed"), rescheduleRequested(TO, PROPOSED)];
  it("the proposed time and the creator's time are both held until the expert answers", () => {
    expect(canBook(countered, PROPOSED)).toBe(false);
    expect(canBook(countered, TO)).toBe(false);
    expect(canBook(countered, T1)).toBe(true); // the time first asked for was given up when the expert proposed
  });
  it("the expert accepting it confirms the booking at the creator's time: both have now agreed to it", () => {
    spec(countered)
      .when(accept())
      .then([
        { type: "RescheduleAccepted", data: moveData(TO, "expert", PROPOSED) },
        { type: "Confirmed", data: { bookingId: BOOKING, by: "expert" } },
      ]);
    expect(after(countered, accept()).bookings.get(BOOKING)).toMatchObject({ status: "confirmed", scheduledTime: TO, rescheduleTo: null });
    expect(after(countered, accept(ADMIN)).bookings.get(BOOKING)).toMatchObject({ status: "confirmed", scheduledTime: TO });
  });
  it("the room the caller chose for it is recorded in the confirmation, as when the expert accepts a request", () => {
    const withRoom: CalendarCommand = { type: "AcceptReschedule", ...on, actor: EXPERT, meetingRoom: "r00m9f3aK2xQ7pLm4TzW8y" };
    spec(countered)
      .when(withRoom)
      .then([
        { type: "RescheduleAccepted", data: moveData(TO, "expert", PROPOSED) },
        { type: "Confirmed", data: { bookingId: BOOKING, by: "expert", meetingRoom: "r00m9f3aK2xQ7pLm4TzW8y" } },
      ]);
    // A plain move of a booking already confirmed confirms nothing, so records no room.
    spec([...bookingIn("confirmed"), rescheduleRequested()])
      .when(withRoom)
      .then([{ type: "RescheduleAccepted", data: moveData(TO, "expert") }]);
  });
  it("declined, the proposed time stands: the creator may still accept it, or ask for another", () => {
    const declined = after(countered, decline(EXPERT, "Only mornings that week"));
    expect(declined.bookings.get(BOOKING)).toMatchObject({ status: "time_proposed", scheduledTime: PROPOSED, rescheduleTo: null });
    const given = [
      ...countered,
      { type: "RescheduleDeclined", data: { ...moveData(TO, "expert", PROPOSED), reason: "" } } as CalendarEvent,
    ];
    expect(spec(given).when(commands.confirm(CREATOR)).result.ok).toBe(true);
    expect(spec(given).when(reschedule({ to: "2026-03-05T10:00:00.000Z" })).result.ok).toBe(true);
  });
  it("the creator accepting the proposed time after all withdraws their own request: nothing is left to answer", () => {
    spec(countered)
      .when(commands.confirm(CREATOR))
      .then([
        { type: "RescheduleWithdrawn", data: moveData(TO, "creator", PROPOSED) },
        { type: "Confirmed", data: { bookingId: BOOKING, by: "creator" } },
      ]);
    expect(canBook(countered, TO)).toBe(false);
    const confirmed = after(countered, commands.confirm(CREATOR));
    expect(confirmed.bookings.get(BOOKING)).toMatchObject({ status: "confirmed", scheduledTime: PROPOSED, rescheduleTo: null });
  });
  it("the notice counts from the proposed time", () => {
    spec(bookingIn("time_proposed")).when(reschedule(), "2026-03-03T09:00:00.001Z").thenRefused("reschedule_too_late");
  });
});

describe("no overlap is ever possible", () => {
  // Random histories of three creators' bookings on one calendar: requests, payments, moves and
  // their answers, cancellations, at times drawn from a handful that overlap one another. After
  // every accepted decision no two held times (bookings and open requests) may overlap.
  const times = ["2026-03-04T10:00:00.000Z", "2026-03-04T10:30:00.000Z", "2026-03-04T11:00:00.000Z", "2026-03-05T10:00:00.000Z"];
  const creators: Actor[] = [CREATOR, OTHER_CREATOR, { userId: "c3", role: "creator" }];
  const ids = ["k0", "k1", "k2"];
  const step = fc.record({
    // Requests, payments and moves more often than answers, so that most histories hold several times.
    kind: fc.constantFrom("book", "book", "pay", "pay", "confirm", "reschedule", "reschedule", "accept", "decline", "withdraw", "cancel"),
    who: fc.integer({ min: 0, max: 2 }),
    at: fc.constantFrom(...times),
  });
  const commandOf = ({ kind, who, at }: { kind: string; who: number; at: string }): CalendarCommand => {
    const bookingId = ids[who]!;
    const target = { expertId: EXPERT_ID, bookingId };
    switch (kind) {
      case "book":
        return requestBooking({ bookingId, actor: creators[who]!, scheduledTime: at });
      case "pay":
        return {
          type: "RecordPayment",
          ...target,
          actor: { userId: "payments", role: "system" },
          paymentId: `pi-${bookingId}`,
          amountCents: PRICE,
          provider: "test",
        };
      case "confirm":
        return { type: "ConfirmBooking", ...target, actor: EXPERT };
      case "reschedule":
        return { type: "RequestReschedule", ...target, actor: creators[who]!, scheduledTime: at, creatorBookings: [] };
      case "accept":
        return { type: "AcceptReschedule", ...target, actor: EXPERT };
      case "decline":
        return { type: "DeclineReschedule", ...target, actor: EXPERT, reason: "" };
      case "withdraw":
        return { type: "WithdrawReschedule", ...target, actor: creators[who]! };
      default:
        return { type: "CancelBooking", ...target, actor: creators[who]!, reason: "" };
    }
  };
  /** Every time a booking holds (its own, and an open request's: those two may overlap, moving within its own slot). */
  const heldTimes = (state: CalendarState) =>
    [...state.bookings.values()]
      .filter((b) => blocksTime(b, NOW))
      .flatMap((b) =>
        [b.scheduledTime, openReschedule(b, NOW)]
          .filter((t): t is string => t !== null)
          .map((t) => ({ bookingId: b.bookingId, start: Date.parse(t), end: Date.parse(t) + b.lengthMinutes * 60_000 })),
      );
  it("holds for 1,000 random histories of 10 to 40 steps", () => {
    fc.assert(
      fc.property(fc.array(step, { minLength: 10, maxLength: 40, size: "max" }), (steps) => {
        let state = stateOf([scheduleSet]);
        for (const s of steps) {
          const r = calendarDecider.decide(commandOf(s), state, { now: NOW });
          if (!r.ok) continue;
          state = calendarDecider.evolve(state, r.value);
          const held = heldTimes(state);
          for (const a of held)
            for (const b of held)
              if (a.bookingId < b.bookingId) expect(a.start < b.end && b.start < a.end, JSON.stringify(held)).toBe(false);
        }
      }),
      { numRuns: 1000, seed: 17 },
    );
  });
});
