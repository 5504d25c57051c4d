import { describe, expect, it } from "vitest";
import { MAX_UNPAID_HOLDS_PER_CREATOR, type CalendarEvent, type CreatorBookingFacts } from "@booking/contracts";
import { calendarDecider } from "../../src/calendar/calendar.ts";
import { deciderSpec } from "./decider-spec.ts";
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
  SYSTEM,
  T1,
  bookingIn,
  commands,
  paid,
  requestBooking,
  requested,
  scheduleSet,
  session,
} from "./calendar-fixtures.ts";

const spec = deciderSpec(calendarDecider, NOW);

describe("request booking", () => {
  it("holds a free time for the hold period", () => {
    spec([scheduleSet])
      .when(requestBooking({ bookingId: "b2", scheduledTime: "2026-03-04T13:00:00.000Z" }))
      .then([
        {
          type: "BookingRequested",
          data: {
            bookingId: "b2",
            expertId: EXPERT_ID,
            expertUserId: EXPERT.userId,
            creatorId: CREATOR.userId,
            sessionId: "s1",
            sessionTitle: session.title,
            lengthMinutes: 60,
            priceCents: PRICE,
            prepQuestions: session.prepQuestions,
            scheduledTime: "2026-03-04T13:00:00.000Z",
            heldUntil: "2026-03-02T08:15:00.000Z",
            currency: "USD",
          },
        },
      ]);
  });

  it("refuses an overlapping time with the catalogue's message", () => {
    spec([scheduleSet, requested("b1", T1)])
      .when(requestBooking({ scheduledTime: "2026-03-03T10:30:00.000Z" }))
      .thenRefused("slot_unavailable", "That time slot is no longer available. Please pick another.");
  });

  it("takes a time that only an expired unpaid hold was blocking", () => {
    const r = spec([scheduleSet, requested("b1", T1)]).when(requestBooking({ scheduledTime: T1 }), "2026-03-02T08:15:00.000Z").result;
    expect(r.ok).toBe(true);
  });

  it("keeps a paid booking's time blocked after the hold", () => {
    spec([scheduleSet, requested("b1", T1), paid("b1")])
      .when(requestBooking({ scheduledTime: T1 }), "2026-03-02T09:00:00.000Z")
      .thenRefused("slot_unavailable");
  });

  it("frees a cancelled booking's time", () => {
    const given = bookingIn("cancelled");
    expect(spec(given).when(requestBooking({ scheduledTime: T1 })).result.ok).toBe(true);
  });

  it("frees the old time when the expert proposes another", () => {
    const given = bookingIn("time_proposed"); // moved from T1 to Wednesday 09:00
    expect(spec(given).when(requestBooking({ scheduledTime: T1 })).result.ok).toBe(true);
    spec(given)
      .when(requestBooking({ scheduledTime: "2026-03-04T09:00:00.000Z" }))
      .thenRefused("slot_unavailable");
  });

  it.each([
    ["outside the weekly slots", "2026-03-03T07:00:00.000Z"],
    ["off the 30-minute grid", "2026-03-03T10:15:00.000Z"],
    ["not fitting before the slot ends", "2026-03-03T16:30:00.000Z"],
    ["in the past", "2026-03-01T10:00:00.000Z"],
    ["more than 28 days ahead", "2026-03-31T10:00:00.000Z"],
  ])("refuses a time %s", (_why, time) => {
    spec([scheduleSet])
      .when(requestBooking({ scheduledTime: time }))
      .thenRefused("slot_unavailable");
  });

  it("refuses anyone but a creator, telling an admin they are an admin", () => {
    spec([scheduleSet])
      .when(requestBooking({ actor: EXPERT }))
      .thenRefused("only_creators_book", "Experts cannot book sessions.");
    spec([scheduleSet])
      .when(requestBooking({ actor: ADMIN }))
      .thenRefused("admin_cannot_book", "Admins cannot book sessions. Sign in with a creator account to book.");
  });
  it("refuses a creator who has not accepted the current terms", () => {
    spec([scheduleSet])
      .when(requestBooking({ creatorAcceptedTerms: false }))
      .thenRefused("terms_not_accepted");
  });
  it("refuses a session that is not published", () => {
    spec([scheduleSet])
      .when(requestBooking({ session: { ...session, published: false } }))
      .thenRefused("session_not_published");
  });
  it("refuses a session of another expert", () => {
    spec([scheduleSet])
      .when(requestBooking({ session: { ...session, expertId: "ex2" } }))
      .thenRefused("session_not_published");
  });
  it("refuses when the expert has no schedule", () => {
    spec([]).when(requestBooking()).thenRefused("slot_unavailable");
  });
  it("refuses a booking id that already exists", () => {
    spec([scheduleSet, requested("b2", T1)])
      .when(requestBooking({ bookingId: "b2", scheduledTime: "2026-03-05T13:00:00.000Z" }))
      .thenRefused("booking_already_exists");
  });
});

describe("the creator's bookings with every expert (facts the route passes)", () => {
  /** One of the creator's bookings, with another expert unless said otherwise. */
  const elsewhere = (scheduledTime: string, over: Partial<CreatorBookingFacts> = {}): CreatorBookingFacts => ({
    bookingId: `other-${scheduledTime}`,
    status: "pending",
    scheduledTime,
    lengthMinutes: 60,
    heldUntil: "2026-03-02T08:15:00.000Z",
    priceCents: PRICE,
    paidCents: 0,
    ...over,
  });
  const threeHolds = ["2026-03-05T09:00:00.000Z", "2026-03-06T09:00:00.000Z", "2026-03-07T09:00:00.000Z"].map((t) => elsewhere(t));

  it(`refuses a fourth unpaid hold, across experts, with the catalogue's message`, () => {
    expect(MAX_UNPAID_HOLDS_PER_CREATOR).toBe(3);
    expect(spec([scheduleSet]).when(requestBooking({ creatorBookings: threeHolds.slice(0, 2) })).result.ok).toBe(true);
    spec([scheduleSet])
      .when(requestBooking({ creatorBookings: threeHolds }))
      .thenRefused(
        "creator_hold_limit",
        "You already have 3 bookings waiting for payment. Complete payment for one, or release its time, before booking another.",
      );
  });
  it("counts only holds that still hold: paid, expired, cancelled and confirmed bookings leave room", () => {
    const [a, b, c] = threeHolds as [CreatorBookingFacts, CreatorBookingFacts, CreatorBookingFacts];
    for (const third of [
      { ...c, paidCents: PRICE },
      { ...c, status: "cancelled" as const },
      { ...c, status: "confirmed" as const, paidCents: PRICE },
    ])
      expect(spec([scheduleSet]).when(requestBooking({ creatorBookings: [a, b, third] })).result.ok, JSON.stringify(third)).toBe(true);
    // Fifteen minutes later every one of those holds has run out.
    expect(spec([scheduleSet]).when(requestBooking({ creatorBookings: threeHolds }), "2026-03-02T08:15:00.000Z").result.ok).toBe(true);
  });
  it("refuses a time that overlaps the creator's session with another expert, and takes the hour after", () => {
    const confirmedElsewhere = elsewhere("2026-03-04T12:30:00.000Z", { status: "confirmed", paidCents: PRICE });
    spec([scheduleSet])
      .when(requestBooking({ scheduledTime: "2026-03-04T13:00:00.000Z", creatorBookings: [confirmedElsewhere] }))
      .thenRefused("creator_time_overlap", "You already have a session booked at that time. Please pick another time.");
    expect(
      spec([scheduleSet]).when(requestBooking({ scheduledTime: "2026-03-04T13:30:00.000Z", creatorBookings: [confirmedElsewhere] })).result
        .ok,
    ).toBe(true);
    // A cancelled booking or an expired hold frees the creator's time as it frees the expert's.
    expect(
      spec([scheduleSet]).when(
        requestBooking({ scheduledTime: "2026-03-04T13:00:00.000Z", creatorBookings: [{ ...confirmedElsewhere, status: "cancelled" }] }),
      ).result.ok,
    ).toBe(true);
    expect(
      spec([scheduleSet]).when(
        requestBooking({ scheduledTime: "2026-03-04T13:00:00.000Z", creatorBookings: [elsewhere("2026-03-04T12:30:00.000Z")] }),
        "2026-03-02T08:20:00.000Z",
      ).result.ok,
    ).toBe(true);
  });
});

describe("record payment", () => {
  it("is idempotent per payment id", () => {
    spec(bookingIn("pending")).when(commands.recordPayment("pi_1")).then([]);
  });
  it("refuses an amount other than the session price", () => {
    spec(bookingIn("pending", false))
      .when({ ...commands.recordPayment(), amountCents: 100 } as never)
      .thenRefused("payment_amount_mismatch");
  });
  it("is refused from a creator or expert: only the payment provider records payments", () => {
    spec(bookingIn("pending", false))
      .when({ ...commands.recordPayment(), actor: CREATOR } as never)
      .thenRefused("forbidden");
  });
  it("keeps a late payment when the time is still free", () => {
    const r = spec(bookingIn("pending", false)).when(commands.recordPayment(), "2026-03-02T08:30:00.000Z").result;
    expect(r.ok && r.value.map((e) => e.type)).toEqual(["PaymentSucceeded"]);
  });
  it("cancels and refunds a late payment whose time was taken meanwhile", () => {
    const given = [...bookingIn("pending", false), requested("b9", T1, OTHER_CREATOR.userId), paid("b9", "pi_9")];
    spec(given)
      .when(commands.recordPayment("pi_late"), "2026-03-02T08:30:00.000Z")
      .then([
        {
          type: "PaymentSucceeded",
          data: { bookingId: BOOKING, paymentId: "pi_late", amountCents: PRICE, provider: "test", currency: "USD", feeBasisPoints: 1500 },
        },
        { type: "Cancelled", data: { bookingId: BOOKING, by: "system", reason: "payment_timeout", refundCents: PRICE } },
      ]);
  });
  it("records a second payment of a paid booking and owes it back", () => {
    spec(bookingIn("pending"))
      .when(commands.recordPayment("pi_2"))
      .then([
        {
          type: "PaymentSucceeded",
          data: { bookingId: BOOKING, paymentId: "pi_2", amountCents: PRICE, provider: "test", currency: "USD", feeBasisPoints: 1500 },
        },
        { type: "RefundDue", data: { bookingId: BOOKING, paymentId: "pi_2", amountCents: PRICE, reason: "already_paid" } },
      ]);
  });
});

describe("who may act on a booking", () => {
  it.each([
    ["another creator submits prep", commands.submitPrep(OTHER_CREATOR)],
    ["the expert submits prep", commands.submitPrep(EXPERT)],
    ["another expert asks for info", commands.requestInfo(OTHER_EXPERT)],
    ["the creator asks for info", commands.requestInfo(CREATOR)],
    ["the creator proposes a time", commands.proposeTime(CREATOR)],
    ["another creator cancels", commands.cancel(OTHER_CREATOR)],
    ["another expert cancels", commands.cancel(OTHER_EXPERT)],
    ["the creator adds notes", commands.addNotes(CREATOR)],
  ])("refuses when %s", (_who, command) => {
    spec(bookingIn("pending")).when(command).thenRefused("not_booking_party", "Only the creator or expert of this booking can do that.");
  });
  it("lets an admin cancel any booking", () => {
    spec(bookingIn("confirmed"))
      .when(commands.cancel(ADMIN))
      .then([{ type: "Cancelled", data: { bookingId: BOOKING, by: "admin", reason: "Plans changed", refundCents: PRICE } }]);
  });
  it("refuses a system actor expiring nothing but holds; refuses others expiring", () => {
    spec(bookingIn("pending", false)).when(commands.expireHold(CREATOR), "2026-03-02T09:00:00.000Z").thenRefused("forbidden");
  });
  it("answers an unknown booking with 'No booking found'", () => {
    spec([scheduleSet]).when(commands.cancel()).thenRefused("booking_not_found", "No booking found");
  });
});

describe("details of each transition", () => {
  it("refusal messages name the status and the action", () => {
    spec(bookingIn("completed"))
      .when(commands.cancel())
      .thenRefused("booking_transition_refused", "This booking is complete and can no longer be cancelled.");
  });
  it("confirming an unpaid booking asks for payment", () => {
    spec(bookingIn("pending", false)).when(commands.confirm()).thenRefused("payment_required");
  });
  it("cancelling a paid booking refunds the amount paid; an unpaid one refunds nothing", () => {
    spec(bookingIn("confirmed"))
      .when(commands.cancel())
      .then([{ type: "Cancelled", data: { bookingId: BOOKING, by: "creator", reason: "Plans changed", refundCents: PRICE } }]);
    spec(bookingIn("pending", false))
      .when(commands.cancel(EXPERT))
      .then([{ type: "Cancelled", data: { bookingId: BOOKING, by: "expert", reason: "Plans changed", refundCents: 0 } }]);
  });
  it("a hold is not expired before its time", () => {
    spec(bookingIn("pending", false)).when(commands.expireHold(SYSTEM), "2026-03-02T08:14:59.000Z").thenRefused("hold_not_expired");
  });
  it("expiring a hold cancels with reason payment_timeout", () => {
    spec(bookingIn("pending", false))
      .when(commands.expireHold(), "2026-03-02T08:15:00.000Z")
      .then([{ type: "Cancelled", data: { bookingId: BOOKING, by: "system", reason: "payment_timeout", refundCents: 0 } }]);
  });
  it("a session cannot be completed before its end time", () => {
    spec(bookingIn("confirmed")).when(commands.complete(), "2026-03-03T10:59:00.000Z").thenRefused("session_not_over");
  });
  it.each([
    ["before 9:00", "2026-03-05T08:30:00.000Z"],
    ["after 17:30", "2026-03-05T18:00:00.000Z"],
    ["off the half hour", "2026-03-05T10:10:00.000Z"],
    ["in the past", "2026-03-01T10:00:00.000Z"],
  ])("refuses a proposed time %s", (_why, time) => {
    spec(bookingIn("pending")).when(commands.proposeTime(EXPERT, time)).thenRefused("proposed_time_invalid");
  });
  it("refuses a proposed time outside the expert's weekly hours, or that does not fit in them (issue 27.12)", () => {
    // Weekdays 9:00 to 17:00 only: Saturday, 17:30 and a 60-minute session at 16:30 are not the expert's times.
    const workdays = ["monday", "tuesday", "wednesday", "thursday", "friday"] as const;
    const weekdays = workdays.map((weekday) => ({ weekday, start_local: "09:00", end_local: "17:00" }));
    const given = [{ ...scheduleSet, data: { ...scheduleSet.data, slots: weekdays } }, requested(), paid()];
    for (const time of ["2026-03-07T10:00:00.000Z", "2026-03-05T17:30:00.000Z", "2026-03-05T16:30:00.000Z"]) {
      spec(given).when(commands.proposeTime(EXPERT, time)).thenRefused("proposed_time_invalid");
    }
    expect(spec(given).when(commands.proposeTime(EXPERT, "2026-03-05T16:00:00.000Z")).result.ok).toBe(true);
  });
  it("takes a proposed time in extra hours on a date, as a booking does", () => {
    const evening: CalendarEvent = {
      type: "DateOverrideAdded",
      data: { expertId: EXPERT_ID, overrideId: "x", date: "2026-03-05", start_local: "17:00", end_local: "20:00" },
    };
    expect(spec([...bookingIn("pending"), evening]).when(commands.proposeTime(EXPERT, "2026-03-05T18:00:00.000Z")).result.ok).toBe(true);
  });
  it("refuses a proposed time that overlaps another active booking, but not the booking's own time", () => {
    const given = [...bookingIn("pending"), requested("b9", "2026-03-05T14:00:00.000Z", OTHER_CREATOR.userId), paid("b9", "pi_9")];
    spec(given).when(commands.proposeTime(EXPERT, "2026-03-05T14:30:00.000Z")).thenRefused("proposed_time_invalid");
    expect(spec(given).when(commands.proposeTime(EXPERT, "2026-03-03T10:30:00.000Z")).result.ok).toBe(true);
  });
  it("notes keep everything the expert wrote", () => {
    spec(bookingIn("completed"))
      .when(commands.addNotes())
      .then([
        {
          type: "NotesAdded",
          data: { bookingId: BOOKING, notes: { summary: "Good call", recap: "", takeaways: ["Post daily"], suggestedActions: [] } },
        },
      ]);
  });
});

describe("schedule", () => {
  it("an expert sets the weekly schedule", () => {
    const schedule = { timezone: "Asia/Kolkata", slots: [{ weekday: "friday" as const, start_local: "10:00", end_local: "12:30" }] };
    spec([])
      .when({ type: "SetSchedule", expertId: EXPERT_ID, actor: EXPERT, schedule })
      .then([{ type: "ScheduleSet", data: { expertId: EXPERT_ID, ...schedule } }]);
  });
  it("a creator cannot set a schedule", () => {
    spec([])
      .when({ type: "SetSchedule", expertId: EXPERT_ID, actor: CREATOR, schedule: { timezone: "UTC", slots: [] } })
      .thenRefused("forbidden");
  });
});
