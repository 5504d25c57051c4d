import type pg from "pg";
import type { EventLog, StoredEvent } from "@booking/contracts";
import { oneLine } from "@booking/event-store";
import type { CalendarCommands } from "../main/index.ts";
import type { RefundOutcome, RefundProvider } from "../payments/index.ts";
import { refundFact } from "./owed.ts";
import { LeasedReactor, type LeasedReactorOptions, type ReactorRun } from "../reactors/index.ts";
import { recordRefundFailed, recordRefundIssued } from "./record-refund.ts";
import { markFailed, recordFact, takeDueRefunds, type RefundRow } from "./refunds-table.ts";

// The refund reactor: refunds owed in the log are paid back through the payment provider, and
// what the provider answered goes back into the log (RefundIssued, RefundFailed).
//
// Crash safety, step by step: the log is read into `refunds` with the checkpoint in one
// transaction (an owed refund is neither lost nor read twice); a refund is then asked for under
// the owing event's id as idempotency key (asking again answers with the same refund, never a
// second one), and recorded by RecordRefund, which the calendar makes idempotent per owing event.
// A crash anywhere in between leaves the row due, and the next attempt repeats both harmlessly.

export type RefundReactorDeps = {
  log: EventLog;
  db: pg.Pool;
  calendar: CalendarCommands;
  provider: RefundProvider;
  clock: () => string;
};

export type RefundReactorOptions = LeasedReactorOptions;
export type RefundReactorRun = ReactorRun;

export class RefundReactor extends LeasedReactor {
  constructor(
    private readonly deps: RefundReactorDeps,
    options: RefundReactorOptions = {},
  ) {
    super(deps, { name: "refunds", checkpoints: "refund_checkpoints" }, options);
  }

  protected async record(client: pg.PoolClient, batch: readonly StoredEvent[]): Promise<void> {
    for (const stored of batch) {
      const fact = refundFact(stored);
      if (fact) await recordFact(client, fact);
    }
  }

  /** Ask the provider for every refund due now; resolves to how many were attempted. */
  async payDue(limit = 50): Promise<number> {
    const now = this.deps.clock();
    const due = await takeDueRefunds(this.deps.db, now, this.leaseUntil(now), limit);
    for (const refund of due) await this.pay(refund);
    return due.length;
  }

  /** Follow the log to its end and pay what is due, once (tests and the loop both use it). */
  async runOnce(): Promise<{ read: number; paid: number }> {
    const read = await this.followToEnd();
    return { read, paid: await this.payDue() };
  }

  private async pay(refund: RefundRow): Promise<void> {
    const { provider, clock } = this.deps;
    const on = { refundKey: refund.refund_key, bookingId: refund.booking_id, expertId: refund.expert_id };
    let outcome: RefundOutcome;
    if (!refund.payment_id) {
      outcome = { status: "failed", reason: "No payment of this booking is known, so there is nothing to refund it to." };
    } else {
      try {
        outcome = await provider.refund({ ...on, paymentId: refund.payment_id, amountCents: refund.amount_cents });
      } catch (e) {
        outcome = { status: "failed", reason: `The payment provider could not be asked: ${oneLine(e)}`.slice(0, 500) };
      }
    }
    if (outcome.status === "issued") {
      const recorded = await recordRefundIssued(this.deps, {
        ...on,
        refundId: outcome.refundId,
        amountCents: refund.amount_cents,
        provider: provider.name,
        at: clock(),
      });
      // Not recorded (a lost race, say): the row stays due and the lease's end brings the next try.
      if (!recorded.ok)
        this.warn(
          `refunds: refund ${refund.refund_key} issued as ${outcome.refundId} but not recorded (${recorded.refusal.code}); will record again`,
        );
      return;
    }
    const attempts = refund.attempts + 1;
    const reason = outcome.reason.slice(0, 500);
    const nextAttemptAt = this.nextAttemptAt(attempts);
    this.warn(
      `refunds: refund ${refund.refund_key} of booking ${refund.booking_id} failed (attempt ${attempts}), next try at ${nextAttemptAt}: ${reason}`,
    );
    const recorded = await recordRefundFailed(this.deps, { ...on, reason, attemptId: String(attempts) });
    if (!recorded.ok) this.warn(`refunds: failure of ${refund.refund_key} not recorded (${recorded.refusal.code})`);
    await markFailed(this.deps.db, refund.refund_key, { reason, attempts, nextAttemptAt });
  }

  protected async pass(): Promise<void> {
    await this.runOnce();
  }
}
