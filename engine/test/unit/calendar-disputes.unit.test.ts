import { describe, expect, it } from "vitest";
import type { Actor, CalendarCommand, CalendarEvent, DisputeReport, DisputeStatus } from "@booking/contracts";
import { calendarDecider } from "../../src/calendar/calendar.ts";
import { deciderSpec } from "./decider-spec.ts";
import { ADMIN, BOOKING, EXPERT_ID, NOW, PRICE, SYSTEM, bookingIn } from "./calendar-fixtures.ts";

// Disputes (issue 31.2), given/when/then: the provider's reports of a dispute become its lifecycle on the booking, each
// step once, a closed dispute stays closed, and a lost one takes back at most what was paid and is not already owed back.

const spec = deciderSpec(calendarDecider, NOW);
const DUE = "2026-03-20T23:59:59.000Z";
const report = (status: DisputeStatus, over: Partial<DisputeReport> = {}): DisputeReport => ({
  disputeId: "dp_1",
  paymentId: "pi_1",
  amountCents: PRICE,
  reason: "fraudulent",
  status,
  evidenceDueBy: DUE,
  ...over,
});
const record = (r: DisputeReport, actor: Actor = SYSTEM): CalendarCommand => ({
  type: "RecordDispute",
  expertId: EXPERT_ID,
  bookingId: BOOKING,
  actor,
  report: r,
});
const opened = (status: DisputeStatus = "needs_response", refundedCents = 0): CalendarEvent => ({
  type: "DisputeOpened",
  data: { bookingId: BOOKING, ...report(status), refundedCents },
});
const closed = (status: DisputeStatus, lostCents: number): CalendarEvent => ({
  type: "DisputeClosed",
  data: { bookingId: BOOKING, disputeId: "dp_1", status, lostCents },
});
const confirmed = bookingIn("confirmed");

describe("a dispute's lifecycle", () => {
  it("opens, moves on, and closes lost, taking back what was paid", () => {
    spec(confirmed)
      .when(record(report("needs_response")))
      .then([opened()]);
    spec([...confirmed, opened()])
      .when(record(report("under_review", { evidenceDueBy: null })))
      .then([{ type: "DisputeUpdated", data: { bookingId: BOOKING, disputeId: "dp_1", status: "under_review", evidenceDueBy: null } }]);
    spec([...confirmed, opened()])
      .when(record(report("lost")))
      .then([closed("lost", PRICE)]);
  });

  it("won, or an inquiry closed: nothing taken back; first heard of already closed: opened and closed at once", () => {
    spec([...confirmed, opened()])
      .when(record(report("won")))
      .then([closed("won", 0)]);
    spec(confirmed)
      .when(record(report("warning_closed")))
      .then([opened("warning_closed"), closed("warning_closed", 0)]);
  });

  it("a report that says nothing new records nothing, and a closed dispute stays closed whatever comes late", () => {
    spec([...confirmed, opened()])
      .when(record(report("needs_response")))
      .then([]);
    for (const late of ["needs_response", "under_review", "won"] as const) {
      spec([...confirmed, opened(), closed("lost", PRICE)])
        .when(record(report(late)))
        .then([]);
    }
  });

  it("a lost dispute over money already owed back takes back only the rest; refunded in full, nothing", () => {
    const refunded = bookingIn("cancelled"); // cancelled by the creator before acceptance: everything owed back
    spec(refunded)
      .when(record(report("needs_response")))
      .then([opened("needs_response", PRICE)]);
    spec([...refunded, opened("needs_response", PRICE)])
      .when(record(report("lost")))
      .then([closed("lost", 0)]);
    const partly: CalendarEvent = {
      type: "RefundDue",
      data: { bookingId: BOOKING, paymentId: "pi_1", amountCents: 5_000, reason: "Late" },
    };
    spec([...confirmed, partly, opened("needs_response", 5_000)])
      .when(record(report("lost")))
      .then([closed("lost", PRICE - 5_000)]);
  });

  it("only the system records what the provider said, and only about one of the booking's payments", () => {
    spec(confirmed)
      .when(record(report("needs_response"), ADMIN))
      .thenRefused("forbidden");
    spec(confirmed)
      .when(record(report("needs_response", { paymentId: "pi_other" })))
      .thenRefused("dispute_payment_unknown");
  });

  it("a lost dispute leaves the booking owing and having returned what it took", () => {
    const state = calendarDecider.evolve(calendarDecider.initialState(), [...confirmed, opened(), closed("lost", PRICE)]);
    expect(state.bookings.get(BOOKING)).toMatchObject({ owedCents: PRICE, refundedCents: PRICE, disputes: { dp_1: "lost" } });
  });
});
