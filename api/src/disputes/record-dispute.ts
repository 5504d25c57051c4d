import type pg from "pg";
import type { Actor, DisputeReport } from "@booking/contracts";
import { calendarStream } from "@booking/engine";
import type { CalendarCommands } from "../main/index.ts";
import type { Projected } from "../http/index.ts";

// Recording a dispute the provider reported on the booking its payment paid for (the payments table knows which).

export type DisputeRecording = { db: pg.Pool; calendar: CalendarCommands; projected: Projected };

const PROVIDER: Actor = { userId: "payments", role: "system" };

/** The booking a payment was for, or null when the product did not take it. */
export async function bookingOfPayment(
  db: pg.Pool,
  paymentId: string,
): Promise<{ bookingId: string; expertId: string; provider: string } | null> {
  const { rows } = await db.query<{ booking_id: string; expert_id: string; provider: string }>(
    "SELECT booking_id, expert_id, provider FROM payments WHERE payment_id = $1",
    [paymentId],
  );
  return rows[0] ? { bookingId: rows[0].booking_id, expertId: rows[0].expert_id, provider: rows[0].provider } : null;
}

/** "recorded" (or nothing new to record), else why not: an unknown payment, or the calendar's refusal. */
export async function recordDispute({ db, calendar, projected }: DisputeRecording, report: DisputeReport): Promise<string> {
  const paid = await bookingOfPayment(db, report.paymentId);
  if (!paid) return "payment_not_ours";
  const result = await calendar.handle(
    calendarStream(paid.expertId),
    { type: "RecordDispute", expertId: paid.expertId, bookingId: paid.bookingId, actor: PROVIDER, report },
    { actor: PROVIDER, idempotencyKey: `dispute:${report.disputeId}:${report.status}` },
  );
  if (!result.ok) return result.refusal.code;
  await projected(result.value);
  return "recorded";
}
