import type pg from "pg";
import type { Actor, Currency, PayoutCommand, Result } from "@booking/contracts";
import { payoutStream } from "@booking/contracts";
import type { CommandResult } from "@booking/event-store";
import type { PayoutCommands } from "../main/index.ts";
import { recordPayoutEvents } from "./read-model.ts";

// The one path that records what a payouts provider said, whoever learns it: the payout reactor
// from the provider's answer, or the provider's webhook (Stripe's account.updated,
// transfer.reversed, payout.paid, payout.failed). The expert's payouts stream decides, idempotently
// per key; the payouts area's tables follow at once.

export const PAYOUTS_ACTOR: Actor = { userId: "payouts", role: "system" };

export type PayoutRecording = { db: pg.Pool; payouts: PayoutCommands };

/** Send one payouts command (as the system unless told), under `idempotencyKey` if any, and write the events it appended into the area's tables. */
export async function sendPayoutCommand(
  { db, payouts }: PayoutRecording,
  command: PayoutCommand,
  idempotencyKey: string | undefined,
  actor: Actor = PAYOUTS_ACTOR,
): Promise<Result<CommandResult>> {
  const result = await payouts.handle(payoutStream(command.expertId), command, { actor, ...(idempotencyKey && { idempotencyKey }) });
  if (result.ok) await recordPayoutEvents(db, result.value.events);
  return result;
}

/** What the provider says about an expert's account now (`eventId`: the report's id, so one delivered twice is recorded once). */
export function recordAccountStatus(
  deps: PayoutRecording,
  r: { expertId: string; accountId: string; payoutsEnabled: boolean; detailsSubmitted: boolean; eventId: string },
): Promise<Result<CommandResult>> {
  const { eventId, ...status } = r;
  return sendPayoutCommand(deps, { type: "RecordPayoutAccountStatus", ...status, actor: PAYOUTS_ACTOR }, `account-status-${eventId}`);
}

export function recordTransferSent(
  deps: PayoutRecording,
  t: { expertId: string; transferKey: string; bookingId: string; transferId: string; amountCents: number; currency: Currency },
): Promise<Result<CommandResult>> {
  return sendPayoutCommand(deps, { type: "RecordTransfer", ...t, actor: PAYOUTS_ACTOR }, `transfer-sent-${t.transferKey}`);
}

/** `attemptId` names one failed attempt, so a report of it delivered twice is recorded once. */
export function recordTransferFailed(
  deps: PayoutRecording,
  t: { expertId: string; transferKey: string; bookingId: string; reason: string; attemptId: string },
): Promise<Result<CommandResult>> {
  const { attemptId, ...failure } = t;
  return sendPayoutCommand(
    deps,
    { type: "RecordTransferFailure", ...failure, reason: failure.reason.slice(0, 500), actor: PAYOUTS_ACTOR },
    `transfer-failed-${t.transferKey}-${attemptId}`,
  );
}

/** A reversal the provider refused; `attemptId` names the attempt, so a report of it delivered twice is recorded once. */
export function recordTransferReversalFailed(
  deps: PayoutRecording,
  r: { expertId: string; reversalKey: string; bookingId: string; reason: string; attemptId: string },
): Promise<Result<CommandResult>> {
  const { attemptId, ...failure } = r;
  return sendPayoutCommand(
    deps,
    { type: "RecordTransferReversalFailure", ...failure, reason: failure.reason.slice(0, 500), actor: PAYOUTS_ACTOR },
    `transfer-reversal-failed-${r.reversalKey}-${attemptId}`,
  );
}

export function recordTransferReversal(
  deps: PayoutRecording,
  r: {
    expertId: string;
    reversalKey: string;
    bookingId: string;
    transferId: string;
    reversalId: string;
    amountCents: number;
    currency: Currency;
  },
): Promise<Result<CommandResult>> {
  return sendPayoutCommand(deps, { type: "RecordTransferReversal", ...r, actor: PAYOUTS_ACTOR }, `transfer-reversed-${r.reversalKey}`);
}

export function recordPayoutSent(
  deps: PayoutRecording,
  p: { expertId: string; payoutKey: string; payoutId: string },
): Promise<Result<CommandResult>> {
  return sendPayoutCommand(deps, { type: "RecordPayoutSent", ...p, actor: PAYOUTS_ACTOR }, `payout-sent-${p.payoutKey}`);
}

export function recordPayoutPaid(
  deps: PayoutRecording,
  p: { expertId: string; payoutKey: string; payoutId: string },
): Promise<Result<CommandResult>> {
  return sendPayoutCommand(deps, { type: "RecordPayoutPaid", ...p, actor: PAYOUTS_ACTOR }, `payout-paid-${p.payoutKey}`);
}

/** A payout the provider refused or that did not arrive: its money is available again. */
export function recordPayoutFailed(
  deps: PayoutRecording,
  p: { expertId: string; payoutKey: string; reason: string },
): Promise<Result<CommandResult>> {
  return sendPayoutCommand(
    deps,
    { type: "RecordPayoutFailure", ...p, reason: p.reason.slice(0, 500), actor: PAYOUTS_ACTOR },
    `payout-failed-${p.payoutKey}`,
  );
}
