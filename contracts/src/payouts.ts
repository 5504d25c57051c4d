import { z } from "zod";
import { Currency } from "./money.ts";
import { Actor, Id } from "./primitives.ts";

// Stream `payouts-{expertId}` (issue 29): how an expert is paid. Their payout account, an admin's
// hold, each completed booking's share released after the clearing period, the transfer of that
// share to their account (and its reversal when money is refunded later), and their payouts.
// The booking's own money (payment, fee rate, refunds) stays on the calendar stream; the facts a
// release needs come in the command, read by the caller from the bookings read model.

/** Where a provider key may come from: Stripe Connect, or the network-free test provider. */
export const PayoutProviderName = z.enum(["stripe", "test"]);
export type PayoutProviderName = z.infer<typeof PayoutProviderName>;

/** Keys the provider is asked under, one per movement, the same on every retry (never a second transfer). */
export const transferKeyOf = (bookingId: string) => `transfer-${bookingId}`;
export const reversalKeyOf = (bookingId: string, refundedCents: number) => `reversal-${bookingId}-${refundedCents}`;
export const payoutStream = (expertId: string) => `payouts-${expertId}`;

/** A completed booking's money as the bookings read model knows it when the release is asked for. */
export const ReleasableEarning = z.object({
  bookingId: Id,
  currency: Currency,
  paidCents: z.number().int().nonnegative(),
  refundedCents: z.number().int().nonnegative(),
  feeBasisPoints: z.number().int().min(0).max(10_000),
  completedAt: z.string(),
});
export type ReleasableEarning = z.infer<typeof ReleasableEarning>;

const onExpert = { expertId: Id, actor: Actor };
const providerKey = z.string().min(1).max(255);
const reason = z.string().trim().max(500);

export const PayoutCommand = z.discriminatedUnion("type", [
  /** The expert started connecting an account at the provider (Stripe Connect Express, or a test account). */
  z.object({ type: z.literal("ConnectPayoutAccount"), ...onExpert, accountId: providerKey, provider: PayoutProviderName }),
  /** What the provider says about the account now (`account.updated`, or the test onboarding's end). */
  z.object({
    type: z.literal("RecordPayoutAccountStatus"),
    ...onExpert,
    accountId: providerKey,
    payoutsEnabled: z.boolean(),
    detailsSubmitted: z.boolean(),
    /** When the provider said it (Stripe's event `created`): webhooks arrive out of order, and an older report never overwrites a newer one. */
    reportedAt: z.iso.datetime().optional(),
  }),
  z.object({ type: z.literal("HoldPayouts"), ...onExpert, reason }),
  z.object({ type: z.literal("ResumePayouts"), ...onExpert }),
  /** The clearing period of a completed booking is over: its share becomes the expert's to pay out. */
  z.object({ type: z.literal("ReleaseEarning"), ...onExpert, earning: ReleasableEarning }),
  /** Money of a released booking was refunded (in total `refundedCents` now): the fee and the share shrink, the transfer is reversed. */
  z.object({ type: z.literal("AdjustEarning"), ...onExpert, bookingId: Id, refundedCents: z.number().int().nonnegative() }),
  z.object({
    type: z.literal("RecordTransfer"),
    ...onExpert,
    transferKey: providerKey,
    bookingId: Id,
    transferId: providerKey,
    amountCents: z.number().int().positive(),
    currency: Currency,
  }),
  z.object({ type: z.literal("RecordTransferFailure"), ...onExpert, transferKey: providerKey, bookingId: Id, reason }),
  /** The provider refused to reverse a transfer (the expert's account no longer holds the money, …): retried, and shown. */
  z.object({ type: z.literal("RecordTransferReversalFailure"), ...onExpert, reversalKey: providerKey, bookingId: Id, reason }),
  z.object({
    type: z.literal("RecordTransferReversal"),
    ...onExpert,
    reversalKey: providerKey,
    bookingId: Id,
    transferId: providerKey,
    reversalId: providerKey,
    amountCents: z.number().int().positive(),
    currency: Currency,
  }),
  /** The expert (or the weekly schedule) asks to be paid; no amount: everything transferred and not yet paid out. */
  z.object({
    type: z.literal("RequestPayout"),
    ...onExpert,
    payoutKey: providerKey,
    currency: Currency,
    amountCents: z.number().int().positive().optional(),
    by: z.enum(["expert", "schedule", "admin"]),
  }),
  /** The provider took the payout (`payoutId`), or it arrived (`paid`), or it failed and the money is available again. */
  z.object({ type: z.literal("RecordPayoutSent"), ...onExpert, payoutKey: providerKey, payoutId: providerKey }),
  z.object({ type: z.literal("RecordPayoutPaid"), ...onExpert, payoutKey: providerKey, payoutId: providerKey }),
  z.object({ type: z.literal("RecordPayoutFailure"), ...onExpert, payoutKey: providerKey, reason }),
]);
export type PayoutCommand = z.infer<typeof PayoutCommand>;
export type PayoutCommandType = PayoutCommand["type"];

const expert = { expertId: Id };
const amount = { amountCents: z.number().int(), currency: Currency };

export const PayoutEvent = z.discriminatedUnion("type", [
  z.object({
    type: z.literal("PayoutAccountConnected"),
    data: z.object({ ...expert, accountId: z.string(), provider: PayoutProviderName }),
  }),
  z.object({
    type: z.literal("PayoutAccountUpdated"),
    data: z.object({
      ...expert,
      accountId: z.string(),
      payoutsEnabled: z.boolean(),
      detailsSubmitted: z.boolean(),
      /** When the provider said it; absent before reports were ordered. */
      reportedAt: z.string().optional(),
    }),
  }),
  z.object({ type: z.literal("PayoutsHeld"), data: z.object({ ...expert, reason: z.string(), by: Id }) }),
  z.object({ type: z.literal("PayoutsResumed"), data: z.object({ ...expert, by: Id }) }),
  /** `keptCents` = paid − refunded at release; `feeCents` + `shareCents` = `keptCents`. */
  z.object({
    type: z.literal("EarningReleased"),
    data: z.object({
      ...expert,
      bookingId: Id,
      currency: Currency,
      paidCents: z.number().int(),
      refundedCents: z.number().int(),
      keptCents: z.number().int(),
      feeBasisPoints: z.number().int(),
      feeCents: z.number().int(),
      shareCents: z.number().int(),
    }),
  }),
  /** A refund after the release: the fee and the share given back (`feeCents` + `shareCents` = the refund's part); `refundedCents` is the new total. */
  z.object({
    type: z.literal("EarningAdjusted"),
    data: z.object({
      ...expert,
      bookingId: Id,
      currency: Currency,
      refundedCents: z.number().int(),
      feeCents: z.number().int(),
      shareCents: z.number().int(),
    }),
  }),
  z.object({
    type: z.literal("TransferSent"),
    data: z.object({ ...expert, transferKey: z.string(), bookingId: Id, transferId: z.string(), ...amount }),
  }),
  z.object({
    type: z.literal("TransferFailed"),
    data: z.object({ ...expert, transferKey: z.string(), bookingId: Id, reason: z.string() }),
  }),
  z.object({
    type: z.literal("TransferReversed"),
    data: z.object({ ...expert, reversalKey: z.string(), bookingId: Id, transferId: z.string(), reversalId: z.string(), ...amount }),
  }),
  z.object({
    type: z.literal("TransferReversalFailed"),
    data: z.object({ ...expert, reversalKey: z.string(), bookingId: Id, reason: z.string() }),
  }),
  z.object({
    type: z.literal("PayoutRequested"),
    data: z.object({ ...expert, payoutKey: z.string(), ...amount, by: z.enum(["expert", "schedule", "admin"]) }),
  }),
  z.object({ type: z.literal("PayoutSent"), data: z.object({ ...expert, payoutKey: z.string(), payoutId: z.string() }) }),
  z.object({ type: z.literal("PayoutPaid"), data: z.object({ ...expert, payoutKey: z.string(), payoutId: z.string() }) }),
  /**
   * The money of a failed payout is available again (and paid out by the next one). `afterPaid`: the bank returned a payout
   * already reported paid (Stripe may say payout.failed days after payout.paid), so the money is back on the expert's account.
   */
  z.object({
    type: z.literal("PayoutFailed"),
    data: z.object({ ...expert, payoutKey: z.string(), reason: z.string(), afterPaid: z.literal(true).optional() }),
  }),
]);
export type PayoutEvent = z.infer<typeof PayoutEvent>;
