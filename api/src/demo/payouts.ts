import type pg from "pg";
import { DateTime } from "luxon";
import { releasableAt, type Actor, type PayoutCommand } from "@booking/contracts";
import type { CommandResult } from "@booking/event-store";
import type { PayoutCommands } from "../main/index.ts";
import { PAYOUTS_ACTOR, PayoutReactor, TestPayoutProvider, releaseEarnings, sendPayoutCommand } from "../payouts/index.ts";
import type { ExpertKey } from "./cast.ts";
import type { DemoMarket } from "./history.ts";
import type { Timeline } from "./timeline.ts";

// How the demo's experts were paid (issue 29), played on the history's timeline as the running
// process would have done it: each expert connected a test payout account weeks ago (one never
// finished the onboarding); a completed session's money is released once its clearing period is
// over and transferred at once by the payout reactor; a minute later the reactor's sweep asks for
// the weekly payout (once per expert, currency and ISO week), which the test provider pays; an admin
// held one expert's payouts the day after her first one. The release sweeper and the payout reactor
// are the real ones, run at the timeline's clock, so what the live reactor finds after the seed is
// what it would have left itself: nothing to do. (It is not held back while the seed writes: a
// transfer or payout it makes first is the same one, under the same key, made at its own clock.)

type PayoutStory = {
  /** When the expert connected a test payout account: days before today, 10:00 on their clock. */
  connectedDaysAgo: number;
  /** Finished: payouts enabled; left incomplete: the Payments tab asks them to finish connecting. */
  onboarding: "finished" | "left incomplete";
  /** An admin holds their payouts (with this reason) the day after their first payout was paid. */
  hold?: string;
};

export const PAYOUT_STORIES: Readonly<Record<ExpertKey, PayoutStory>> = {
  ava: { connectedDaysAgo: 45, onboarding: "finished" },
  marcus: { connectedDaysAgo: 41, onboarding: "finished" },
  priya: { connectedDaysAgo: 38, onboarding: "finished" },
  sofia: {
    connectedDaysAgo: 50,
    onboarding: "finished",
    hold: "The bank account on file changed; payouts wait until the new account holder's name is checked.",
  },
  jordan: { connectedDaysAgo: 20, onboarding: "left incomplete" },
};

const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;
/** The payout reactor's sweep asks for the weekly payouts within a minute of a transfer. */
const SWEEP_AFTER_MS = MINUTE;
/** The release sweeper runs every minute: an earning is released within a minute of its clearing period's end. */
const RELEASED_AFTER_MS = 30_000;

export type PayoutDeps = {
  db: pg.Pool;
  /** A write to wait for before the read models are next read. */
  record: (result: CommandResult) => void;
  /** Plan a step of the past (refuses one at or after now). */
  plan: (at: number, run: () => Promise<void>) => void;
};
export type PayoutsPlan = { completedAt: (atMs: number) => void };

/** The payouts handler at the timeline's clock, each write it makes recorded (a Proxy: the handler's class is kept whole). */
function recording(handler: PayoutCommands, record: (result: CommandResult) => void): PayoutCommands {
  const handle: PayoutCommands["handle"] = async (...args) => {
    const result = await handler.handle(...args);
    if (result.ok) record(result.value);
    return result;
  };
  return new Proxy(handler, { get: (target, key, receiver) => (key === "handle" ? handle : Reflect.get(target, key, receiver)) });
}

/** Plan the payout accounts, holds and weekly sweeps; `completedAt` plans the release of a session completed then. */
export function planPayouts(deps: PayoutDeps, market: DemoMarket, timeline: Timeline, nowMs: number): PayoutsPlan {
  const { db, plan } = deps;
  const payouts = recording(timeline.commands.payouts, deps.record);
  const provider = new TestPayoutProvider(db);
  const clock = () => timeline.now;
  // The reactor's warnings (a failed transfer, a payout not recorded) are said as the running reactor says them.
  const reactor = new PayoutReactor(
    { log: timeline.store, db, payouts, provider, clock },
    { warn: (line) => console.warn(`seed: ${line}`) },
  );
  const send = async (command: PayoutCommand, key?: string) => {
    const result = await sendPayoutCommand({ db, payouts }, command, key, command.actor);
    if (!result.ok) throw new Error(`seed: ${command.type} at ${timeline.now} refused: ${result.refusal.code}`);
  };
  const holds = new Map<string, string>();
  const at = (ms: number) => Math.min(ms, nowMs - 1);

  let firstConnection = nowMs;
  for (const { expert, account } of market.experts.values()) {
    const story = PAYOUT_STORIES[expert.key];
    const expertId = account.id;
    const connectAt = DateTime.fromMillis(nowMs, { zone: expert.timezone })
      .startOf("day")
      .minus({ days: story.connectedDaysAgo })
      .set({ hour: 10 })
      .toMillis();
    firstConnection = Math.min(firstConnection, connectAt);
    if (story.hold) holds.set(expertId, story.hold);
    // As POST /experts/me/payout-account: an account at the provider, connected on the expert's payouts stream.
    plan(connectAt, async () => {
      const { accountId } = await provider.createAccount({ expertId, email: account.email });
      const actor: Actor = { userId: expertId, role: "expert" };
      await send({ type: "ConnectPayoutAccount", expertId, actor, accountId, provider: provider.name }, `connect-${accountId}`);
      // As the test onboarding's end, a few minutes later: finished, or left before the bank details.
      plan(at(connectAt + 6 * MINUTE), async () => {
        const status = await provider.finishOnboarding(accountId, story.onboarding === "finished");
        await send({ type: "RecordPayoutAccountStatus", expertId, actor: PAYOUTS_ACTOR, ...status });
      });
    });
  }

  /** The reactor's sweep: the weekly payouts asked for and paid; an expert to hold is held the day after their first payout. */
  const sweep = async () => {
    await reactor.runOnce();
    await reactor.requestWeeklyPayouts();
    // At once: the request is in the area's tables already (and the running process's reactor, woken by it, would pay it at its own clock).
    await reactor.payDue();
    for (const [expertId, reason] of holds) {
      const paid = await db.query("SELECT 1 FROM payout_payouts WHERE expert_id = $1 AND status = 'paid' LIMIT 1", [expertId]);
      if (!paid.rows.length) continue;
      holds.delete(expertId);
      const heldAt = Date.parse(timeline.now) + DAY;
      if (heldAt < nowMs) plan(heldAt, () => holdPayouts(expertId, reason));
    }
  };

  /** As POST /admin/payout-accounts/{expertId}/hold, by the first admin (or the seed, without one). */
  const holdPayouts = async (expertId: string, reason: string) => {
    const admin = await db.query<{ user_id: string }>("SELECT user_id FROM accounts WHERE role = 'admin' ORDER BY created_at LIMIT 1");
    const actor: Actor = { userId: admin.rows[0]?.user_id ?? "seed", role: "admin" };
    await send({ type: "HoldPayouts", expertId, actor, reason });
  };

  // A new ISO week: the first sweep in it pays out what was transferred since the last payout.
  for (let monday = DateTime.fromMillis(firstConnection, { zone: "utc" }).startOf("week"); ; monday = monday.plus({ weeks: 1 })) {
    const sweepAt = monday.toMillis() + RELEASED_AFTER_MS;
    if (sweepAt >= nowMs) break;
    if (sweepAt > firstConnection) plan(sweepAt, sweep);
  }

  return {
    completedAt: (completedMs) => {
      const releaseAt = Date.parse(releasableAt(new Date(completedMs).toISOString())) + RELEASED_AFTER_MS;
      if (releaseAt - RELEASED_AFTER_MS >= nowMs) return;
      const releasedAt = at(releaseAt);
      // The release sweeper releases it; the reactor, woken by the append, transfers it; its next sweep pays it out.
      plan(releasedAt, async () => {
        await reactor.runOnce();
        await releaseEarnings({ db, payouts, clock });
        await reactor.payDue();
        plan(at(releasedAt + SWEEP_AFTER_MS), sweep);
      });
    },
  };
}
