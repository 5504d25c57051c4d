import {
  NO_SHOW_CONTEST_HOURS,
  NO_SHOW_REPORT_HOURS_AFTER_END,
  noShowStatusOf,
  ok,
  refused,
  type CalendarCommand,
  type CalendarEvent,
  type NoShowParty,
} from "@booking/contracts";
import type { Booking } from "./calendar-state.ts";
import { isAdmin, isCreatorOf, isExpertOf, isSystem, type Decision } from "./decision-rules.ts";
import { refundableCents } from "./refund-policy.ts";

// No-shows (issue 31.1), decided on the expert's calendar stream beside the booking's other steps, so a
// report and the completion sweeper, or a contest and the sweeper settling the report, are one
// decision after the other: whichever is second sees the first.

const HOUR_MS = 3_600_000;

/** A booking's no-show report as the rules read it; null on a booking with none. */
export type NoShowState = { absent: NoShowParty; contestBy: string; contested: boolean; settled: boolean };

type NoShowCommand = Extract<CalendarCommand, { type: "ReportNoShow" | "ContestNoShow" | "SettleNoShow" | "DecideNoShow" }>;

export const isNoShowCommand = (c: CalendarCommand): c is NoShowCommand =>
  c.type === "ReportNoShow" || c.type === "ContestNoShow" || c.type === "SettleNoShow" || c.type === "DecideNoShow";

/** Rule: a no-show may be reported from the session's start until NO_SHOW_REPORT_HOURS_AFTER_END after its end (both instants included). */
export function noShowWindow(b: Pick<Booking, "scheduledTime" | "lengthMinutes">): { opens: string; closes: string } {
  const end = Date.parse(b.scheduledTime) + b.lengthMinutes * 60_000;
  return { opens: b.scheduledTime, closes: new Date(end + NO_SHOW_REPORT_HOURS_AFTER_END * HOUR_MS).toISOString() };
}

/** Rule: a report is open from when it is made until it is settled; the booking then neither completes nor pays out. */
export const noShowOpen = (b: Pick<Booking, "noShow">): boolean => b.noShow !== null && !b.noShow.settled;

/** The party an actor is on a booking, or null for anyone else (admins and the system report nothing). */
const sideOf = (a: CalendarCommand["actor"], b: Booking): NoShowParty | null =>
  isCreatorOf(a, b) ? "creator" : isExpertOf(a, b) ? "expert" : null;

/** The report's end, with the money owed back in the same decision (the refund reactor pays a `RefundDue`). */
function settled(b: Booking, outcome: ReturnType<typeof noShowStatusOf>, refundCents: number, by: string, reason: string): Decision {
  const absent = b.noShow!.absent;
  const events: CalendarEvent[] = [{ type: "NoShowSettled", data: { bookingId: b.bookingId, absent, outcome, refundCents, by, reason } }];
  const paymentId = b.paymentIds[0];
  if (refundCents > 0 && paymentId !== undefined) {
    events.push({ type: "RefundDue", data: { bookingId: b.bookingId, paymentId, amountCents: refundCents, reason: `no_show: ${reason}` } });
  }
  return ok(events);
}

export function decideOnNoShow(c: NoShowCommand, b: Booking, now: string): Decision {
  const a = c.actor;
  const t = Date.parse(now);
  switch (c.type) {
    case "ReportNoShow": {
      const side = sideOf(a, b);
      if (!side) return refused("not_booking_party");
      // Rule: one report per booking: the reported party answers a report by contesting it, not with another.
      if (b.noShow) return refused("no_show_already_reported");
      if (b.status !== "confirmed" && b.status !== "completed") return refused("no_show_not_held");
      const { opens, closes } = noShowWindow(b);
      if (t < Date.parse(opens)) return refused("no_show_too_early");
      if (t > Date.parse(closes)) return refused("no_show_window_closed");
      const contestBy = new Date(t + NO_SHOW_CONTEST_HOURS * HOUR_MS).toISOString();
      const absent: NoShowParty = side === "creator" ? "expert" : "creator";
      return ok([{ type: "NoShowReported", data: { bookingId: b.bookingId, absent, by: a.userId, note: c.note.trim(), contestBy } }]);
    }

    case "ContestNoShow": {
      const side = sideOf(a, b);
      if (!side) return refused("not_booking_party");
      if (!b.noShow || b.noShow.settled) return refused("no_show_not_reported");
      // Rule: only the party reported absent contests, within NO_SHOW_CONTEST_HOURS of the report (its last instant included).
      if (side !== b.noShow.absent) return refused("no_show_not_yours");
      if (b.noShow.contested) return refused("no_show_already_contested");
      if (t > Date.parse(b.noShow.contestBy)) return refused("no_show_contest_closed");
      return ok([{ type: "NoShowContested", data: { bookingId: b.bookingId, by: a.userId, note: c.note.trim() } }]);
    }

    case "SettleNoShow": {
      if (!isSystem(a)) return refused("forbidden");
      if (!b.noShow || b.noShow.settled) return refused("no_show_not_reported");
      if (b.noShow.contested) return refused("no_show_already_contested");
      if (t <= Date.parse(b.noShow.contestBy)) return refused("no_show_contest_open");
      // Rule: an uncontested report stands. An absent expert: everything paid goes back; an absent creator: the expert keeps it.
      const refund = b.noShow.absent === "expert" ? refundableCents(b) : 0;
      return settled(b, noShowStatusOf(b.noShow.absent), refund, "system", "uncontested");
    }

    case "DecideNoShow": {
      if (!isAdmin(a)) return refused("forbidden");
      if (!b.noShow || b.noShow.settled) return refused("no_show_not_reported");
      // Checked here too, not only at the boundary: the decider is the rule whoever calls it.
      if (!Number.isInteger(c.refundCents) || c.refundCents < 0) return refused("refund_amount_invalid");
      const most = refundableCents(b);
      if (c.refundCents > most) return refused("refund_amount_too_high", { max: `${(most / 100).toFixed(2)} ${b.currency}` });
      const reason = c.reason.trim();
      if (reason.length === 0) return refused("no_show_reason_required");
      return settled(b, c.upheld ? noShowStatusOf(b.noShow.absent) : "completed", c.refundCents, a.userId, reason);
    }
  }
}
