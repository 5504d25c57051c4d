import { refusal, type Currency, type Refusal, type UserRole } from "@booking/contracts";

// When an account may be erased (issue 33.2), from plain facts (erasure-facts.ts reads them). Erasure cannot be undone,
// and it takes the person's name from everything the other party and the books keep: so it waits until nothing is
// open between them and anyone else, and until no money is owed to or by them. Each refusal says what to settle first.

/** A booking of the person's, as its refusal names it. */
export type OpenBooking = { title: string; scheduledTime: string };

export type ErasureFacts = {
  role: UserRole;
  /** Admin accounts other than theirs that are not erased (counted for an admin). */
  otherAdmins: number;
  /** Their bookings, as either party, that are not over: requested, waiting for an answer, confirmed. */
  openBookings: readonly OpenBooking[];
  /** Their bookings with a refund owed to the creator and not paid back yet. */
  refundsPending: number;
  /** Their bookings whose payment the creator's bank disputes, the dispute not closed. */
  disputesOpen: number;
  /** Their bookings with a no-show report not settled yet (it decides who keeps the money). */
  noShowReportsOpen: number;
  /** What the expert has earned and not been paid yet, per currency: shares not released, released and not paid out, payouts on their way. */
  earningsUnpaid: readonly { currency: Currency; cents: number }[];
};

/** How many of a list a refusal names before it only counts the rest. */
const NAMED = 3;

const day = (instant: string) => instant.slice(0, 10);
const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/** "“Pricing review” on 2030-03-05, … and 2 more". */
function namedBookings(bookings: readonly OpenBooking[]): string {
  const sorted = [...bookings].sort((a, b) => a.scheduledTime.localeCompare(b.scheduledTime));
  const named = sorted.slice(0, NAMED).map((b) => `“${b.title}” on ${day(b.scheduledTime)}`);
  const rest = sorted.length - named.length;
  return rest > 0 ? `${named.join(", ")} and ${rest} more` : named.join(", ");
}

/** "12.50 USD" (the amount as an amount, in its own currency: nothing is added across currencies). */
const amount = ({ currency, cents }: { currency: Currency; cents: number }) => `${(cents / 100).toFixed(2)} ${currency}`;

/** What is still owed to or by them, in words; empty when nothing is. */
export function moneyOwed(facts: Pick<ErasureFacts, "refundsPending" | "disputesOpen" | "noShowReportsOpen" | "earningsUnpaid">): string[] {
  const owed: string[] = [];
  if (facts.refundsPending > 0) owed.push(`${plural(facts.refundsPending, "refund", "refunds")} not paid back yet`);
  if (facts.disputesOpen > 0) owed.push(`${plural(facts.disputesOpen, "payment dispute", "payment disputes")} still open`);
  if (facts.noShowReportsOpen > 0) owed.push(`${plural(facts.noShowReportsOpen, "no-show report", "no-show reports")} not settled yet`);
  const unpaid = facts.earningsUnpaid.filter((e) => e.cents > 0);
  if (unpaid.length > 0) owed.push(`earnings of ${unpaid.map(amount).join(" and ")} not paid out to you yet`);
  return owed;
}

/** Rule: whether the account may be erased now; null when it may, else the refusal saying what to settle first. */
export function erasureRefusal(facts: ErasureFacts): Refusal | null {
  // The console needs an admin: the last one cannot leave (an admin made from ADMIN_EMAIL would come back at the next start).
  if (facts.role === "admin" && facts.otherAdmins === 0) return refusal("erasure_last_admin");
  const open = facts.openBookings.length;
  if (open > 0) {
    return refusal("erasure_open_bookings", {
      count: String(open),
      bookings: open === 1 ? "booking" : "bookings",
      them: open === 1 ? "it" : "them",
      list: namedBookings(facts.openBookings),
    });
  }
  const owed = moneyOwed(facts);
  if (owed.length > 0) return refusal("erasure_money_owed", { list: owed.join("; ") });
  return null;
}
