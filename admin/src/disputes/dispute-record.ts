import {
  DISPUTE_STATUS_LABELS,
  DISPUTE_STATUSES,
  disputeClosed,
  DisputeStatus,
  type AdminDisputeReply,
  type DisputeReply,
  type TestDisputeBody,
  type TimelineEntry,
} from "@booking/contracts";
import type { z } from "zod";
import { consoleMoment } from "../fields/date-time-field.tsx";
import { moneyText } from "../no-shows/no-show-record.ts";

// Disputes and chargebacks (issue 31.2): a dispute as GET /admin/disputes sends it (contracts' AdminDisputeReply, keyed
// by the dispute's id), a booking's dispute as its page holds it (DisputeReply), and the words the console uses for them.

export type Dispute = AdminDisputeReply;
export type BookingDispute = DisputeReply;
/** POST /admin/payments/{paymentId}/test-dispute's body, as the console sends it. */
export type TestDisputeRequest = z.input<typeof TestDisputeBody>;
export type TestDisputeReason = NonNullable<TestDisputeRequest["reason"]>;

/** A status as the provider words it; a status the console does not know as sent. */
export const disputeStatusText = (status: string) =>
  Object.hasOwn(DISPUTE_STATUS_LABELS, status) ? DISPUTE_STATUS_LABELS[status as DisputeStatus] : status;

/** The status filter's choices, in the provider's order. */
export const disputeStatusChoices = DISPUTE_STATUSES.map((id) => ({ id, name: DISPUTE_STATUS_LABELS[id] }));

/** The list opens on the disputes still open: the ones whose evidence may still be submitted. */
export const OPEN_DISPUTES = { open: true };

/** Whether a dispute has ended (won, lost, an inquiry closed): its closing time, or a closing status. */
export const isClosed = (d: Pick<BookingDispute, "status" | "closed_at">) =>
  d.closed_at !== null || (DisputeStatus.safeParse(d.status).success && disputeClosed(d.status));

/** The reasons the test provider takes, as a bank gives them. */
export const testDisputeReasons: { id: TestDisputeReason; name: string }[] = [
  { id: "fraudulent", name: "Fraudulent" },
  { id: "product_not_received", name: "Product not received" },
  { id: "duplicate", name: "Duplicate" },
  { id: "general", name: "General" },
];

/** "product_not_received" → "Product not received": the provider's reason code in words. */
export const reasonText = (reason: string) => {
  const words = reason.replaceAll("_", " ").trim();
  return words ? words.charAt(0).toUpperCase() + words.slice(1) : "—";
};

/** An amount in the dispute's currency ("USD 50.00"). */
export const disputeMoney = (cents: number, currency: string) => moneyText(cents, currency);

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;

/** How long until an evidence deadline, in the console's words: "in 6 days", "in 1 day", "in 5 hours", "overdue". */
export function evidenceLeftText(at: string, now: number = Date.now()): string {
  const left = Date.parse(at) - now;
  if (!Number.isFinite(left)) return "—";
  if (left <= 0) return "overdue";
  const days = Math.floor(left / DAY_MS);
  if (days >= 1) return days === 1 ? "in 1 day" : `in ${days} days`;
  const hours = Math.floor(left / HOUR_MS);
  if (hours < 1) return "in under an hour";
  return hours === 1 ? "in 1 hour" : `in ${hours} hours`;
}

/** The evidence deadline as the list and pages write it: the moment and the time left; only the moment once the dispute ended. */
export function evidenceDeadlineText(
  d: Pick<BookingDispute, "status" | "closed_at" | "evidence_due_by">,
  now: number = Date.now(),
): string {
  if (!d.evidence_due_by) return "—";
  const moment = consoleMoment(d.evidence_due_by);
  return isClosed(d) ? `${moment} · closed` : `${moment} · ${evidenceLeftText(d.evidence_due_by, now)}`;
}

/** The payments of a booking's history made with the test provider (PaymentSucceeded, provider "test"), oldest first. */
export function testPaymentIds(timeline: readonly TimelineEntry[] | undefined): string[] {
  const ids = (timeline ?? [])
    .filter((e) => e.type === "PaymentSucceeded" && e.data.provider === "test" && typeof e.data.paymentId === "string")
    .map((e) => String(e.data.paymentId));
  return [...new Set(ids)];
}

/** The route of a dispute's page. */
export const disputePath = (disputeId: string) => `/disputes/${encodeURIComponent(disputeId)}/show`;
