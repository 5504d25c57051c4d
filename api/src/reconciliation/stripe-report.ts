import type Stripe from "stripe";
import type { Movement, MovementKind } from "./reconcile.ts";
import { tableExists, type Queryable } from "./movements.ts";

// What Stripe reports (issue 29.6): its balance transactions, the one list of everything that
// moved money on a balance. The platform's balance: charges (payments), refunds, transfers to
// experts' accounts and their reversals. Each expert's connected account: its payouts to the bank,
// counted once Stripe says they are paid (as the ledger posts them: PayoutPaid; a payout returned
// after it is "failed" again, as the ledger's PayoutFailed after it takes it back). Each is keyed
// as the ledger keys it: the booking (from the metadata the product gave the object, or a charge's
// PaymentIntent in the payments table), the expert for payouts. What the product cannot place is
// keyed by Stripe's own id, so it shows as money at the provider the ledger does not have.

/** The Stripe calls reconciliation makes, so tests can hand in a client pointed at a local server. */
export type StripeBalanceClient = Pick<Stripe, "balanceTransactions">;

/** Platform balance transaction types the ledger posts, and the sign that makes their amount the movement's (a refund is negative there). */
const PLATFORM: Record<string, { kind: MovementKind; sign: 1 | -1 }> = {
  charge: { kind: "payment", sign: 1 },
  payment: { kind: "payment", sign: 1 },
  refund: { kind: "refund", sign: -1 },
  payment_refund: { kind: "refund", sign: -1 },
  // A refund that failed after it was issued gives the money back: it takes from the refund's total.
  refund_failure: { kind: "refund", sign: -1 },
  transfer: { kind: "transfer", sign: -1 },
  transfer_refund: { kind: "reversal", sign: 1 },
};

type SourceObject = { id?: string; object?: string; metadata?: Record<string, string> | null; payment_intent?: unknown; status?: string };

const sourceOf = (txn: Stripe.BalanceTransaction): SourceObject | null =>
  txn.source && typeof txn.source === "object" ? (txn.source as SourceObject) : null;
const sourceIdOf = (txn: Stripe.BalanceTransaction): string => (typeof txn.source === "string" ? txn.source : sourceOf(txn)?.id) ?? txn.id;
const idOf = (value: unknown): string | null =>
  typeof value === "string" ? value : value && typeof value === "object" && "id" in value ? String((value as { id: unknown }).id) : null;

/** Which booking each Stripe PaymentIntent paid for (the payments table keeps it). */
async function bookingsOfIntents(db: Queryable, intents: readonly string[]): Promise<Map<string, string>> {
  if (intents.length === 0) return new Map();
  const { rows } = await db.query<{ payment_id: string; booking_id: string }>(
    "SELECT payment_id, booking_id FROM payments WHERE provider = 'stripe' AND payment_id = ANY($1)",
    [intents],
  );
  return new Map(rows.map((r) => [r.payment_id, r.booking_id]));
}

/** Every balance transaction of a balance (the platform's, or a connected account's), all pages, with its source object. */
async function balanceTransactions(client: StripeBalanceClient, stripeAccount?: string): Promise<Stripe.BalanceTransaction[]> {
  const all: Stripe.BalanceTransaction[] = [];
  const params: Stripe.BalanceTransactionListParams = { limit: 100, expand: ["data.source"] };
  for await (const txn of client.balanceTransactions.list(params, stripeAccount ? { stripeAccount } : undefined)) all.push(txn);
  return all;
}

/** The platform's movements: payments, refunds, transfers and reversals, keyed by booking. */
export async function stripePlatformMovements(client: StripeBalanceClient, db: Queryable): Promise<Movement[]> {
  const txns = (await balanceTransactions(client))
    .filter((txn) => PLATFORM[txn.type])
    .map((txn) => {
      const source = sourceOf(txn);
      return { txn, source, intent: idOf(source?.payment_intent) };
    });
  const intents = txns.flatMap((t) => (t.intent === null ? [] : [t.intent]));
  const bookingOfIntent = await bookingsOfIntents(db, [...new Set(intents)]);
  return txns.map(({ txn, source, intent }) => {
    const { kind, sign } = PLATFORM[txn.type]!;
    const booking = source?.metadata?.bookingId ?? (intent ? bookingOfIntent.get(intent) : undefined);
    return { kind, ref: booking ?? `stripe:${sourceIdOf(txn)}`, currency: txn.currency.toUpperCase(), amountCents: sign * txn.amount };
  });
}

/** Each connected account's payouts Stripe says are paid, keyed by the account's expert. */
export async function stripePayoutMovements(client: StripeBalanceClient, db: Queryable): Promise<Movement[]> {
  if (!(await tableExists(db, "payout_experts"))) return [];
  const { rows } = await db.query<{ expert_id: string; account_id: string }>(
    "SELECT expert_id, account_id FROM payout_experts WHERE provider = 'stripe' AND account_id IS NOT NULL ORDER BY expert_id",
  );
  const movements: Movement[] = [];
  for (const { expert_id, account_id } of rows) {
    for (const txn of await balanceTransactions(client, account_id)) {
      if (txn.type !== "payout" || sourceOf(txn)?.status !== "paid") continue;
      movements.push({ kind: "payout", ref: expert_id, currency: txn.currency.toUpperCase(), amountCents: -txn.amount });
    }
  }
  return movements;
}

export async function stripeMovements(client: StripeBalanceClient, db: Queryable): Promise<Movement[]> {
  const [platform, payouts] = await Promise.all([stripePlatformMovements(client, db), stripePayoutMovements(client, db)]);
  return [...platform, ...payouts];
}
