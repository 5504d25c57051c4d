import type pg from "pg";
import type { Actor, Result } from "@booking/contracts";
import { calendarStream } from "@booking/engine";
import type { CommandResult } from "@booking/event-store";
import type { CalendarCommands } from "../main/index.ts";
import { markIssued } from "./refunds-table.ts";

// The one path that records a refund's outcome, whoever learns it: the reactor from the provider's
// answer, or Stripe's webhook (charge.refunded, refund.updated). The calendar decides, idempotently
// per refundKey; the `refunds` row follows.

const REFUNDS: Actor = { userId: "refunds", role: "system" };

export type RefundRecording = { db: pg.Pool; calendar: CalendarCommands };

export type RefundOnBooking = { refundKey: string; bookingId: string; expertId: string };

export async function recordRefundIssued(
  { db, calendar }: RefundRecording,
  r: RefundOnBooking & { refundId: string; amountCents: number; provider: string; at: string },
): Promise<Result<CommandResult>> {
  const result = await calendar.handle(
    calendarStream(r.expertId),
    {
      type: "RecordRefund",
      expertId: r.expertId,
      bookingId: r.bookingId,
      actor: REFUNDS,
      refundKey: r.refundKey,
      refundId: r.refundId,
      amountCents: r.amountCents,
      provider: r.provider,
    },
    { actor: REFUNDS, idempotencyKey: `refund-issued-${r.refundKey}` },
  );
  if (result.ok) await markIssued(db, r.refundKey, { refundId: r.refundId, provider: r.provider, at: r.at });
  return result;
}

/** `attemptId` names one failed attempt, so a report of it delivered twice is recorded once. */
export async function recordRefundFailed(
  { calendar }: Pick<RefundRecording, "calendar">,
  r: RefundOnBooking & { reason: string; attemptId: string },
): Promise<Result<CommandResult>> {
  return calendar.handle(
    calendarStream(r.expertId),
    {
      type: "RecordRefundFailure",
      expertId: r.expertId,
      bookingId: r.bookingId,
      actor: REFUNDS,
      refundKey: r.refundKey,
      reason: r.reason.slice(0, 500),
    },
    { actor: REFUNDS, idempotencyKey: `refund-failed-${r.refundKey}-${r.attemptId}` },
  );
}
