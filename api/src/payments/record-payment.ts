import type { Actor, Result } from "@booking/contracts";
import { calendarStream } from "@booking/engine";
import type { CommandResult } from "@booking/event-store";
import type pg from "pg";
import type { CalendarCommands } from "../main/index.ts";
import { newMeetingRoom } from "../bookings/index.ts";
import type { Projected } from "../http/index.ts";
import { markPayment } from "./payments-table.ts";

// The one path that records a payment's outcome, whoever reports it: the test provider's confirm
// or Stripe's webhook. A success is written to the `payments` row first, then the calendar decides
// (idempotently per payment id): the moment the log holds the payment, a refund it owes (a lapsed
// hold whose time was taken, say) finds the payment succeeded at the test provider, as at Stripe.
// Recording the same outcome again brings both up to date after a crash in between.

const PAYMENTS: Actor = { userId: "payments", role: "system" };

/** What recording an outcome uses: the calendar decides, the read models are waited for, the `payments` table follows. */
export type PaymentRecording = { db: pg.Pool; calendar: CalendarCommands; projected: Projected };

export type PaymentSucceeded = { paymentId: string; bookingId: string; expertId: string; amountCents: number; provider: string };

export type PaymentFailed = {
  paymentId: string;
  bookingId: string;
  expertId: string;
  provider: string;
  /** What the payment asked for (the row needs it when the failure is the first news of the payment). */
  amountCents: number;
  reason: string;
  /**
   * One card attempt (Stripe's event id, or a fresh id per test confirm): one payment may be
   * declined several times, but a redelivered report of one attempt is recorded once.
   */
  attemptId: string;
};

export async function recordPaymentSucceeded(
  { db, calendar, projected }: PaymentRecording,
  p: PaymentSucceeded,
): Promise<Result<CommandResult>> {
  // The money has moved whatever the calendar decides: the row says so before the log can owe any of it back.
  await markPayment(db, { ...p, status: "succeeded", lastError: null });
  const result = await calendar.handle(
    calendarStream(p.expertId),
    // The room an instant booking meets in should this payment confirm it (issue 27.13): drawn here, recorded by the confirmation.
    {
      type: "RecordPayment",
      expertId: p.expertId,
      bookingId: p.bookingId,
      actor: PAYMENTS,
      paymentId: p.paymentId,
      amountCents: p.amountCents,
      provider: p.provider,
      meetingRoom: newMeetingRoom(),
    },
    { actor: PAYMENTS, idempotencyKey: `payment-${p.paymentId}` },
  );
  if (result.ok) await projected(result.value);
  // A refusal (say, an amount that is not the price) is kept on the row for an operator.
  else await markPayment(db, { ...p, status: "succeeded", lastError: result.refusal.code });
  return result;
}

export async function recordPaymentFailed({ db, calendar, projected }: PaymentRecording, p: PaymentFailed): Promise<Result<CommandResult>> {
  const result = await calendar.handle(
    calendarStream(p.expertId),
    {
      type: "RecordPaymentFailure",
      expertId: p.expertId,
      bookingId: p.bookingId,
      actor: PAYMENTS,
      paymentId: p.paymentId,
      reason: p.reason.slice(0, 500),
    },
    { actor: PAYMENTS, idempotencyKey: `payment-failed-${p.paymentId}-${p.attemptId}` },
  );
  if (result.ok) await projected(result.value);
  await markPayment(db, {
    paymentId: p.paymentId,
    bookingId: p.bookingId,
    provider: p.provider,
    amountCents: p.amountCents,
    status: "failed",
    lastError: p.reason.slice(0, 500),
  });
  return result;
}
