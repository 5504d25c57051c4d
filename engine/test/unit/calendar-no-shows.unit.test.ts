import { describe, expect, it } from "vitest";
import { BookingStatus, type Actor, type CalendarCommand, type CalendarEvent } from "@booking/contracts";
import { calendarDecider } from "../../src/calendar/calendar.ts";
import { deciderSpec } from "./decider-spec.ts";
import { ADMIN, BOOKING, CREATOR, EXPERT, EXPERT_ID, NOW, OTHER_CREATOR, PRICE, SYSTEM, T1, bookingIn } from "./calendar-fixtures.ts";

// No-shows (issue 31.1), given/when/then on the calendar: who reports and when, the 48 hours to contest at
// their exact edges, the uncontested report standing, an admin's decision, and completion waiting meanwhile.

const spec = deciderSpec(calendarDecider, NOW);
const on = { expertId: EXPERT_ID, bookingId: BOOKING };

// The session (T1) runs 10:00-11:00 UTC on 2026-03-03; reports are taken until 48 hours after its end.
const DURING = "2026-03-03T10:30:00.000Z";
const JUST_BEFORE_START = "2026-03-03T09:59:59.999Z";
const LAST_REPORT_INSTANT = "2026-03-05T11:00:00.000Z";
const TOO_LATE_TO_REPORT = "2026-03-05T11:00:00.001Z";
const REPORTED_AT = "2026-03-03T12:00:00.000Z";
const CONTEST_BY = "2026-03-05T12:00:00.000Z"; // 48 hours after the report
const CONTEST_TOO_LATE = "2026-03-05T12:00:00.001Z";

const confirmed = bookingIn("confirmed");
const completed = bookingIn("completed");
const report = (actor: Actor, note = "Waited 20 minutes"): CalendarCommand => ({ type: "ReportNoShow", ...on, actor, note });
const contest = (actor: Actor, note = "I was in the room"): CalendarCommand => ({ type: "ContestNoShow", ...on, actor, note });
const settle = (actor: Actor = SYSTEM): CalendarCommand => ({ type: "SettleNoShow", ...on, actor });
const decide = (upheld: boolean, refundCents: number, actor: Actor = ADMIN, reason = "The call log shows no expert"): CalendarCommand => ({
  type: "DecideNoShow",
  ...on,
  actor,
  upheld,
  refundCents,
  reason,
});
const reported = (absent: "expert" | "creator", by: string, note = "Waited 20 minutes", contestBy = CONTEST_BY): CalendarEvent => ({
  type: "NoShowReported",
  data: { bookingId: BOOKING, absent, by, note, contestBy },
});
const contested: CalendarEvent = { type: "NoShowContested", data: { bookingId: BOOKING, by: EXPERT.userId, note: "I was in the room" } };
const expertAbsent = [...completed, reported("expert", CREATOR.userId)];
const creatorAbsent = [...completed, reported("creator", EXPERT.userId)];
const refundDue = (amountCents: number, reason: string): CalendarEvent => ({
  type: "RefundDue",
  data: { bookingId: BOOKING, paymentId: "pi_1", amountCents, reason: `no_show: ${reason}` },
});

describe("reporting a no-show", () => {
  it("the creator reports the expert absent during the session or after it, until 48 hours after its end", () => {
    spec(confirmed)
      .when(report(CREATOR), DURING)
      .then([reported("expert", CREATOR.userId, "Waited 20 minutes", "2026-03-05T10:30:00.000Z")]);
    spec(completed)
      .when(report(CREATOR), REPORTED_AT)
      .then([reported("expert", CREATOR.userId)]);
    expect(spec(completed).when(report(CREATOR), LAST_REPORT_INSTANT).result.ok).toBe(true);
    spec(completed).when(report(CREATOR), TOO_LATE_TO_REPORT).thenRefused("no_show_window_closed");
    spec(confirmed).when(report(CREATOR), JUST_BEFORE_START).thenRefused("no_show_too_early");
  });

  it("the expert reports the creator absent", () => {
    spec(completed)
      .when(report(EXPERT, " No one joined "), REPORTED_AT)
      .then([reported("creator", EXPERT.userId, "No one joined")]);
  });

  it("refuses anyone but the two parties, a second report by either side, and a session that was not held", () => {
    spec(completed).when(report(OTHER_CREATOR), REPORTED_AT).thenRefused("not_booking_party");
    spec(completed).when(report(ADMIN), REPORTED_AT).thenRefused("not_booking_party");
    spec(expertAbsent).when(report(CREATOR), REPORTED_AT).thenRefused("no_show_already_reported");
    spec(expertAbsent).when(report(EXPERT), REPORTED_AT).thenRefused("no_show_already_reported");
    for (const status of BookingStatus.options.filter((s) => s !== "confirmed" && s !== "completed")) {
      const given = bookingIn(status);
      const code = status.endsWith("no_show") ? "no_show_already_reported" : "no_show_not_held";
      spec(given).when(report(CREATOR), REPORTED_AT).thenRefused(code);
    }
  });
});

describe("contesting a report", () => {
  it("the reported party contests within 48 hours of the report, its last instant included", () => {
    spec(expertAbsent).when(contest(EXPERT), CONTEST_BY).then([contested]);
    spec(expertAbsent).when(contest(EXPERT), CONTEST_TOO_LATE).thenRefused("no_show_contest_closed");
  });

  it("refuses the reporter, a stranger, a second contest and a booking with no report", () => {
    spec(expertAbsent).when(contest(CREATOR), REPORTED_AT).thenRefused("no_show_not_yours");
    spec(expertAbsent).when(contest(OTHER_CREATOR), REPORTED_AT).thenRefused("not_booking_party");
    spec([...expertAbsent, contested])
      .when(contest(EXPERT), REPORTED_AT)
      .thenRefused("no_show_already_contested");
    spec(completed).when(contest(EXPERT), REPORTED_AT).thenRefused("no_show_not_reported");
  });
});

describe("an uncontested report stands once the 48 hours have passed", () => {
  it("an absent expert: everything paid goes back to the creator and the booking ends expert_no_show", () => {
    spec(expertAbsent)
      .when(settle(), CONTEST_TOO_LATE)
      .then([
        {
          type: "NoShowSettled",
          data: {
            bookingId: BOOKING,
            absent: "expert",
            outcome: "expert_no_show",
            refundCents: PRICE,
            by: "system",
            reason: "uncontested",
          },
        },
        refundDue(PRICE, "uncontested"),
      ]);
  });

  it("an absent creator: the expert keeps the payment and the booking ends creator_no_show", () => {
    spec(creatorAbsent)
      .when(settle(), CONTEST_TOO_LATE)
      .then([
        {
          type: "NoShowSettled",
          data: { bookingId: BOOKING, absent: "creator", outcome: "creator_no_show", refundCents: 0, by: "system", reason: "uncontested" },
        },
      ]);
  });

  it("not while the reported party may still contest, not once contested, and only by the system", () => {
    spec(expertAbsent).when(settle(), CONTEST_BY).thenRefused("no_show_contest_open");
    spec([...expertAbsent, contested])
      .when(settle(), CONTEST_TOO_LATE)
      .thenRefused("no_show_already_contested");
    spec(expertAbsent).when(settle(ADMIN), CONTEST_TOO_LATE).thenRefused("forbidden");
    spec(completed).when(settle(), CONTEST_TOO_LATE).thenRefused("no_show_not_reported");
  });
});

describe("an admin decides a report", () => {
  const contestedReport = [...expertAbsent, contested];

  it("upheld with part refunded: the booking ends as the reported party's no-show and the part is owed back", () => {
    spec(contestedReport)
      .when(decide(true, 5_000), REPORTED_AT)
      .then([
        {
          type: "NoShowSettled",
          data: {
            bookingId: BOOKING,
            absent: "expert",
            outcome: "expert_no_show",
            refundCents: 5_000,
            by: ADMIN.userId,
            reason: "The call log shows no expert",
          },
        },
        refundDue(5_000, "The call log shows no expert"),
      ]);
  });

  it("not upheld, nothing refunded: the session counts as held", () => {
    const result = spec(contestedReport).when(decide(false, 0, ADMIN, "The expert was there"), REPORTED_AT).result;
    expect(result).toMatchObject({ ok: true, value: [{ type: "NoShowSettled", data: { outcome: "completed", refundCents: 0 } }] });
  });

  it("refuses more than was paid and not already owed back, a blank reason, a non-admin and a settled report", () => {
    spec(contestedReport)
      .when(decide(true, PRICE + 1), REPORTED_AT)
      .thenRefused("refund_amount_too_high");
    spec(contestedReport)
      .when(decide(true, 100, ADMIN, "   "), REPORTED_AT)
      .thenRefused("no_show_reason_required");
    spec(contestedReport)
      .when(decide(true, 100, CREATOR), REPORTED_AT)
      .thenRefused("forbidden");
    spec(bookingIn("expert_no_show")).when(decide(true, 0), REPORTED_AT).thenRefused("no_show_not_reported");
  });
});

describe("completion waits for the report", () => {
  it("a session reported missed before completion is not completed by the sweeper; settled, it no longer needs to be", () => {
    const reportedDuring = [...confirmed, reported("expert", CREATOR.userId)];
    const complete: CalendarCommand = { type: "CompleteBooking", ...on, actor: SYSTEM };
    spec(reportedDuring).when(complete, REPORTED_AT).thenRefused("no_show_report_open");
    spec(confirmed)
      .when(complete, REPORTED_AT)
      .then([{ type: "Completed", data: { bookingId: BOOKING } }]);
    expect(T1 < REPORTED_AT).toBe(true);
    // Nor is it cancelled meanwhile, by either party (a cancellation would refund around the report).
    for (const actor of [CREATOR, EXPERT]) {
      spec(reportedDuring)
        .when({ type: "CancelBooking", ...on, actor, reason: "" }, REPORTED_AT)
        .thenRefused("no_show_report_open");
    }
  });
});
