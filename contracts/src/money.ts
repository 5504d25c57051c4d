import { z } from "zod";
import { CURRENCIES } from "./currencies.ts";

// Money (issue 29): integer minor units with an ISO 4217 currency, never a float, never added
// across currencies. The platform's fee, the clearing period and the payout minimum are business
// constants; a booking records the fee it was paid under, so changing the constant never rewrites history.

export const Currency = z.enum(CURRENCIES, { error: "currency_invalid" });
export type Currency = z.infer<typeof Currency>;

/** An amount: integer minor units (cents) of one currency. */
export const Money = z.object({ amountCents: z.number().int(), currency: Currency });
export type Money = z.infer<typeof Money>;

/** The platform keeps this share of what a creator pays, in basis points (1500 = 15 %). */
export const PLATFORM_FEE_BASIS_POINTS = 1500;
/** A completed session's money becomes the expert's to pay out this many days after it ended (no-shows, disputes, late refunds). */
export const CLEARING_PERIOD_DAYS = 7;
/** An expert may ask for a payout of at least this much (minor units of the currency); the weekly payout pays any amount. */
export const PAYOUT_MINIMUM_CENTS: Record<Currency, number> = { USD: 2000, EUR: 2000, GBP: 2000, CAD: 2000, AUD: 2000 };

/** Rule: the fee on what the platform keeps of a payment, rounded half up to a whole minor unit. */
export function feeCents(keptCents: number, feeBasisPoints: number): number {
  return Math.floor((keptCents * feeBasisPoints + 5000) / 10_000);
}

/** A booking's money as its expert earns it: what was kept of the payment, the fee on it and the expert's share. */
export type EarningSplit = { keptCents: number; feeCents: number; shareCents: number };

/** Rule: the expert's share is what the creator paid, less everything refunded, less the fee on the rest. */
export function earningSplit(paidCents: number, refundedCents: number, feeBasisPoints: number): EarningSplit {
  const keptCents = Math.max(0, paidCents - refundedCents);
  const fee = feeCents(keptCents, feeBasisPoints);
  return { keptCents, feeCents: fee, shareCents: keptCents - fee };
}

/** Rule: a completed session's money is released this long after its completion, not before. */
export const releasableAt = (completedAt: string): string =>
  new Date(Date.parse(completedAt) + CLEARING_PERIOD_DAYS * 86_400_000).toISOString();

/** Sum amounts of one currency; adding across currencies is a defect, so it throws. */
export function sumMoney(currency: Currency, amounts: readonly Money[]): Money {
  let total = 0;
  for (const m of amounts) {
    if (m.currency !== currency) throw new Error(`cannot add ${m.currency} to ${currency}`);
    total += m.amountCents;
  }
  return { amountCents: total, currency };
}
