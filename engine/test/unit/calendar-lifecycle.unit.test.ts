import { describe, expect, it } from "vitest";
import { BookingStatus, type CalendarCommand } from "@booking/contracts";
import { calendarDecider } from "../../src/calendar/calendar.ts";
import { deciderSpec } from "./decider-spec.ts";
import { CREATOR, EXPERT, NOW, T1, bookingIn, commands } from "./calendar-fixtures.ts";

// Every row of the booking lifecycle table (ARCHITECTURE.md), against every status: the command
// is either allowed, producing the listed events, or refused with `booking_transition_refused`.

const spec = deciderSpec(calendarDecider, NOW);
const AFTER_SESSION = "2026-03-03T11:00:00.000Z"; // T1 + 60 minutes
const AFTER_HOLD = "2026-03-02T08:15:00.000Z";

type Row = {
  name: string;
  command: CalendarCommand;
  now?: string;
  paid?: boolean;
  allowed: Partial<Record<BookingStatus, string[]>>;
};

const rows: Row[] = [
  {
    name: "record payment (unpaid booking)",
    command: commands.recordPayment(),
    paid: false,
    // Confirmed and completed need a payment first; paying a closed booking is recorded and owed back.
    allowed: {
      pending: ["PaymentSucceeded"],
      more_info_requested: ["PaymentSucceeded"],
      time_proposed: ["PaymentSucceeded"],
      cancelled: ["PaymentSucceeded", "RefundDue"],
    },
  },
  {
    name: "submit prep (creator)",
    command: commands.submitPrep(),
    allowed: {
      pending: ["PrepSubmitted"],
      more_info_requested: ["PrepSubmitted"],
      time_proposed: ["PrepSubmitted"],
      confirmed: ["PrepSubmitted"],
    },
  },
  { name: "request more info (expert)", command: commands.requestInfo(), allowed: { pending: ["InfoRequested"] } },
  {
    name: "propose another time (expert)",
    command: commands.proposeTime(),
    allowed: { pending: ["TimeProposed"], more_info_requested: ["TimeProposed"] },
  },
  {
    name: "confirm (expert, paid)",
    command: commands.confirm(EXPERT),
    allowed: { pending: ["Confirmed"], more_info_requested: ["Confirmed"] },
  },
  { name: "confirm (creator accepts a proposed time)", command: commands.confirm(CREATOR), allowed: { time_proposed: ["Confirmed"] } },
  {
    name: "cancel (creator)",
    command: commands.cancel(CREATOR),
    allowed: { pending: ["Cancelled"], more_info_requested: ["Cancelled"], time_proposed: ["Cancelled"], confirmed: ["Cancelled"] },
  },
  {
    name: "cancel (expert)",
    command: commands.cancel(EXPERT),
    allowed: { pending: ["Cancelled"], more_info_requested: ["Cancelled"], time_proposed: ["Cancelled"], confirmed: ["Cancelled"] },
  },
  {
    name: "expire hold (system, unpaid, past the hold)",
    command: commands.expireHold(),
    paid: false,
    now: AFTER_HOLD,
    allowed: { pending: ["Cancelled"] },
  },
  {
    name: "complete (expert, after the end time)",
    command: commands.complete(),
    now: AFTER_SESSION,
    allowed: { confirmed: ["Completed"] },
  },
  { name: "add notes (expert)", command: commands.addNotes(), allowed: { confirmed: ["NotesAdded"], completed: ["NotesAdded"] } },
];

describe("booking lifecycle: every command against every status", () => {
  for (const row of rows) {
    describe(row.name, () => {
      for (const status of BookingStatus.options) {
        // A confirmed, completed or no-show booking is always paid: skip impossible unpaid histories.
        if (row.paid === false && ["confirmed", "completed", "expert_no_show", "creator_no_show"].includes(status)) continue;
        const expected = row.allowed[status];
        it(`${status}: ${expected ? `allowed -> ${expected.join(", ")}` : "refused"}`, () => {
          const when = spec(bookingIn(status, row.paid ?? true)).when(row.command, row.now ?? NOW);
          if (expected) {
            expect(when.result.ok, JSON.stringify(when.result)).toBe(true);
            if (when.result.ok) expect(when.result.value.map((e) => e.type)).toEqual(expected);
          } else {
            when.thenRefused("booking_transition_refused");
          }
        });
      }
    });
  }
});

describe("status after each allowed transition", () => {
  const statusAfter = (given: ReturnType<typeof bookingIn>, command: CalendarCommand, now = NOW) => {
    const state = calendarDecider.evolve(calendarDecider.initialState(), given);
    const result = calendarDecider.decide(command, state, { now });
    if (!result.ok) throw new Error(JSON.stringify(result.refusal));
    return calendarDecider.evolve(state, result.value).bookings.get("b1")!;
  };

  it("prep answers after a request for more info send the booking back to pending", () => {
    expect(statusAfter(bookingIn("more_info_requested"), commands.submitPrep()).status).toBe("pending");
  });
  it("prep answers leave other statuses unchanged", () => {
    for (const status of ["pending", "time_proposed", "confirmed"] as const) {
      expect(statusAfter(bookingIn(status), commands.submitPrep()).status).toBe(status);
    }
  });
  it("a proposed time moves the booking to the new time and time_proposed", () => {
    const b = statusAfter(bookingIn("pending"), commands.proposeTime(EXPERT, "2026-03-05T14:30:00.000Z"));
    expect(b).toMatchObject({ status: "time_proposed", scheduledTime: "2026-03-05T14:30:00.000Z" });
  });
  it("the creator accepting a proposed time confirms it", () => {
    expect(statusAfter(bookingIn("time_proposed"), commands.confirm(CREATOR)).status).toBe("confirmed");
  });
  it("a payment leaves the status as it was", () => {
    const b = statusAfter(bookingIn("pending", false), commands.recordPayment());
    expect(b).toMatchObject({ status: "pending", paidCents: 15_000 });
  });
  it("the time stays T1 until a new one is proposed", () => {
    expect(statusAfter(bookingIn("pending"), commands.requestInfo()).scheduledTime).toBe(T1);
  });
});
