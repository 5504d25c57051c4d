import type { Booking } from "../shared/api-types.ts";
import { currencyOf, moneyText } from "../shared/money.ts";

/**
 * Where the creator's money is, in words: "Paid $150", "Refund of $150 pending", "Refunded $150" (in the booking's currency)
 * (a partial refund says both what came back and what is still to come). Null before anything was paid.
 */
export function moneyLine(b: Pick<Booking, "paid_cents" | "refund_due_cents" | "refunded_cents" | "refund_state">): string | null {
  if (b.paid_cents === 0) return null;
  // In the booking's currency (issue 29.8); whole amounts without their zero cents.
  const dollarsOf = (cents: number) => moneyText(cents, currencyOf(b), { short: true });
  const parts = [`Paid ${dollarsOf(b.paid_cents)}`];
  if (b.refunded_cents > 0) parts.push(`Refunded ${dollarsOf(b.refunded_cents)}`);
  const waiting = b.refund_due_cents - b.refunded_cents;
  // A failed attempt is retried by us, not something the creator must act on: still pending to them.
  if (waiting > 0) parts.push(`Refund of ${dollarsOf(waiting)} pending`);
  return parts.join(" · ");
}
