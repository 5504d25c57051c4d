import type pg from "pg";
import { payoutStream, type Actor, type Currency, type EventLog, type StoredEvent } from "@booking/contracts";
import { oneLine } from "@booking/event-store";
import type { PayoutCommands } from "../main/index.ts";
import { LeasedReactor, type LeasedReactorOptions, type ReactorRun } from "../reactors/index.ts";
import {
  markReversalFailed,
  markTransferFailed,
  takeDueReversals,
  takeDueTransfers,
  type DueReversal,
  type DueTransfer,
} from "./payout-bookings-table.ts";
import {
  expertsWithAvailableMoney,
  markPayoutAttemptFailed,
  recordPayoutOutcome,
  takeDuePayouts,
  type DuePayout,
} from "./payouts-table.ts";
import type { PayoutOutcome, PayoutProvider, ReversalOutcome, TransferOutcome } from "./provider.ts";
import { recordLogEvents } from "./read-model.ts";
import {
  recordPayoutFailed,
  recordPayoutPaid,
  recordPayoutSent,
  recordTransferFailed,
  recordTransferReversalFailed,
  recordTransferReversal,
  recordTransferSent,
  sendPayoutCommand,
} from "./record-payouts.ts";
import { releaseEarnings } from "./release-sweeper.ts";
import { weeklyPayoutKey } from "./weekly-payout.ts";
import type { SweepGate } from "../bookings/index.ts";

// The payout reactor: each released share is transferred to the expert's account once, each share
// given back by a later refund is reversed from that transfer, and each payout asked for is paid,
// through the payouts provider; what the provider answered goes back into the expert's payouts
// stream (TransferSent / TransferFailed, TransferReversed, PayoutSent / PayoutPaid / PayoutFailed).
//
// Crash safety, as the refund reactor's: the log is read into the area's tables with the checkpoint
// in one transaction; a transfer, reversal or payout is taken under a lease and asked for under its
// key (transferKeyOf, reversalKeyOf, the payout's key): asking again answers with the first result,
// never a second movement; the answer is recorded by a command the payouts stream makes idempotent
// per key. A crash anywhere in between leaves the row due when its lease ends, and the next attempt
// repeats both harmlessly. Amounts are fixed per key (the released share, each adjustment's share,
// the payout's amount), so a retry never asks for a different movement under the same key.

export type PayoutReactorDeps = {
  log: EventLog;
  db: pg.Pool;
  payouts: PayoutCommands;
  provider: PayoutProvider;
  clock: () => string;
};

export type PayoutReactorOptions = LeasedReactorOptions & {
  /** How often the running reactor releases earnings whose clearing period is over and asks for the weekly payouts (default 60 s). */
  sweepEveryMs?: number;
  /** The weekly payouts' day (ISO: 1 Monday ... 7 Sunday, on the reactor's clock, UTC); 0: any day; null: never. Default Monday. */
  payoutWeekday?: number | null;
  /** Keeps this reactor away while the demo seed writes its past (as the hold and completion sweepers): its passes would date transfers today. */
  gate?: SweepGate;
};

export type PayoutReactorRun = ReactorRun;

const SCHEDULE: Actor = { userId: "payout-schedule", role: "system" };

export class PayoutReactor extends LeasedReactor {
  private readonly sweepEveryMs: number;
  private readonly payoutWeekday: number | null;
  private readonly gate: SweepGate | undefined;
  private lastSweep = 0;

  constructor(
    private readonly deps: PayoutReactorDeps,
    options: PayoutReactorOptions = {},
  ) {
    super(deps, { name: "payouts", checkpoints: "payout_checkpoints" }, options);
    this.sweepEveryMs = options.sweepEveryMs ?? 60_000;
    this.payoutWeekday = options.payoutWeekday === undefined ? 1 : options.payoutWeekday;
    this.gate = options.gate;
  }

  protected record(client: pg.PoolClient, batch: readonly StoredEvent[]): Promise<void> {
    return recordLogEvents(client, batch);
  }

  /** Transfer, reverse and pay out everything due now; resolves to how many movements were attempted. */
  async payDue(limit = 50): Promise<number> {
    const now = this.deps.clock();
    const leaseUntil = this.leaseUntil(now);
    const { db } = this.deps;
    const transfers = await takeDueTransfers(db, now, leaseUntil, limit);
    for (const t of transfers) await this.transfer(t);
    const reversals = await takeDueReversals(db, now, leaseUntil, limit);
    for (const r of reversals) await this.reverse(r);
    const payouts = await takeDuePayouts(db, now, leaseUntil, limit);
    for (const p of payouts) await this.pay(p);
    return transfers.length + reversals.length + payouts.length;
  }

  /** Follow the log to its end and move what is due, once (tests and the loop both use it). */
  async runOnce(): Promise<{ read: number; moved: number }> {
    const read = await this.followToEnd();
    return { read, moved: await this.payDue() };
  }

  /**
   * The weekly payout: every expert with money available in a currency, account enabled and not
   * held, is paid all of it, once per ISO week (the key is the expert's, the currency's and the week's).
   */
  async requestWeeklyPayouts(): Promise<number> {
    const now = this.deps.clock();
    const keyOf = (expertId: string, currency: Currency) => weeklyPayoutKey(expertId, currency, now);
    let asked = 0;
    for (const { expertId, currency } of await expertsWithAvailableMoney(this.deps.db, keyOf)) {
      const payoutKey = keyOf(expertId, currency);
      const command = { type: "RequestPayout" as const, expertId, actor: SCHEDULE, payoutKey, currency, by: "schedule" as const };
      const result = await sendPayoutCommand(this.deps, command, payoutKey, SCHEDULE);
      if (result.ok && result.value.events.length) asked++;
      // The stream knows better than the tables (a payout already asked, a hold just placed): nothing to do this time.
      if (!result.ok && result.refusal.code !== "payout_nothing_available")
        this.warn(`payouts: weekly payout of ${payoutStream(expertId)} in ${currency} not asked (${result.refusal.code})`);
    }
    return asked;
  }

  private async transfer(t: DueTransfer): Promise<void> {
    const on = { expertId: t.expert_id, bookingId: t.booking_id, transferKey: t.transfer_key };
    let outcome: TransferOutcome;
    try {
      outcome = await this.deps.provider.transfer({ ...on, accountId: t.account_id, amountCents: t.amount_cents, currency: t.currency });
    } catch (e) {
      outcome = { status: "failed", reason: `The payouts provider could not be asked: ${oneLine(e)}`.slice(0, 500) };
    }
    if (outcome.status === "sent") {
      const recorded = await recordTransferSent(this.deps, {
        ...on,
        transferId: outcome.transferId,
        amountCents: t.amount_cents,
        currency: t.currency,
      });
      // Not recorded: the row stays leased, and the lease's end brings the next try (the provider answers with the same transfer).
      if (!recorded.ok)
        this.warn(`payouts: transfer ${t.transfer_key} sent as ${outcome.transferId} but not recorded (${recorded.refusal.code})`);
      return;
    }
    const attempts = t.attempts + 1;
    const reason = outcome.reason.slice(0, 500);
    const nextAttemptAt = this.nextAttemptAt(attempts);
    this.warn(`payouts: transfer ${t.transfer_key} failed (attempt ${attempts}), next try at ${nextAttemptAt}: ${reason}`);
    const recorded = await recordTransferFailed(this.deps, { ...on, reason, attemptId: String(attempts) });
    if (!recorded.ok) this.warn(`payouts: failure of ${t.transfer_key} not recorded (${recorded.refusal.code})`);
    await markTransferFailed(this.deps.db, t.booking_id, { reason, attempts, nextAttemptAt });
  }

  private async reverse(r: DueReversal): Promise<void> {
    let outcome: ReversalOutcome;
    const { reversal_key: reversalKey, transfer_id: transferId, booking_id: bookingId } = r;
    try {
      outcome = await this.deps.provider.reverseTransfer({
        reversalKey,
        transferId,
        bookingId,
        amountCents: r.amount_cents,
        currency: r.currency,
      });
    } catch (e) {
      outcome = { status: "failed", reason: `The payouts provider could not be asked: ${oneLine(e)}`.slice(0, 500) };
    }
    if (outcome.status === "reversed") {
      const recorded = await recordTransferReversal(this.deps, {
        expertId: r.expert_id,
        reversalKey,
        bookingId,
        transferId,
        reversalId: outcome.reversalId,
        amountCents: r.amount_cents,
        currency: r.currency,
      });
      if (!recorded.ok)
        this.warn(`payouts: reversal ${reversalKey} made as ${outcome.reversalId} but not recorded (${recorded.refusal.code})`);
      return;
    }
    const attempts = r.attempts + 1;
    const nextAttemptAt = this.nextAttemptAt(attempts);
    const reason = outcome.reason.slice(0, 500);
    this.warn(`payouts: reversal ${reversalKey} failed (attempt ${attempts}), next try at ${nextAttemptAt}: ${reason}`);
    const recorded = await recordTransferReversalFailed(this.deps, {
      expertId: r.expert_id,
      reversalKey,
      bookingId,
      reason,
      attemptId: String(attempts),
    });
    if (!recorded.ok) this.warn(`payouts: failure of reversal ${reversalKey} not recorded (${recorded.refusal.code})`);
    await markReversalFailed(this.deps.db, reversalKey, { reason, attempts, nextAttemptAt });
  }

  private async pay(p: DuePayout): Promise<void> {
    const on = { expertId: p.expert_id, payoutKey: p.payout_key };
    let outcome: PayoutOutcome;
    try {
      outcome = await this.deps.provider.payout({ ...on, accountId: p.account_id, amountCents: p.amount_cents, currency: p.currency });
    } catch (e) {
      // Not asked: the payout stays requested and is asked again later under the same key.
      const attempts = p.attempts + 1;
      const reason = `The payouts provider could not be asked: ${oneLine(e)}`.slice(0, 500);
      const nextAttemptAt = this.nextAttemptAt(attempts);
      this.warn(`payouts: payout ${p.payout_key} not asked (attempt ${attempts}), next try at ${nextAttemptAt}: ${reason}`);
      await markPayoutAttemptFailed(this.deps.db, p.payout_key, { reason, attempts, nextAttemptAt });
      return;
    }
    if (outcome.status === "failed") {
      const recorded = await recordPayoutFailed(this.deps, { ...on, reason: outcome.reason });
      // (A payout the stream already settled stays as it is: its events, not this answer, keep the row.)
      if (!recorded.ok) this.warn(`payouts: failure of payout ${p.payout_key} not recorded (${recorded.refusal.code})`);
      return;
    }
    // Paid at once (the test provider): one record, PayoutPaid. Sent, then paid, would leave a payout killed between the
    // two records in transit for ever (the row is no longer due, and no provider's webhook says it arrived).
    const recorded =
      outcome.status === "paid"
        ? await recordPayoutPaid(this.deps, { ...on, payoutId: outcome.payoutId })
        : await recordPayoutSent(this.deps, { ...on, payoutId: outcome.payoutId });
    if (!recorded.ok) this.warn(`payouts: payout ${p.payout_key} made as ${outcome.payoutId} but not recorded (${recorded.refusal.code})`);
    else
      await recordPayoutOutcome(this.deps.db, p.payout_key, { status: outcome.status, payoutId: outcome.payoutId, at: this.deps.clock() });
  }

  /**
   * Release what cleared, at most every `sweepEveryMs`; on the payout weekday, ask for the weekly
   * payouts too (the other days leave the money for the expert to ask for, from the minimum up).
   */
  private async sweep(): Promise<void> {
    if (Date.now() - this.lastSweep < this.sweepEveryMs) return;
    this.lastSweep = Date.now();
    await releaseEarnings(this.deps);
    if (this.payoutWeekday === null) return;
    const weekday = new Date(this.deps.clock()).getUTCDay() || 7;
    if (this.payoutWeekday === 0 || weekday === this.payoutWeekday) await this.requestWeeklyPayouts();
  }

  /** Follow, release, transfer and pay; none while the gate is shut. */
  protected async pass(): Promise<void> {
    const gate = this.gate;
    if (gate && !gate.open) return;
    const pass = (async () => {
      await this.runOnce();
      await this.sweep();
    })();
    gate?.track(pass);
    await pass;
  }
}
