import type { FastifyInstance } from "fastify";
import { expertStream } from "@booking/engine";
import {
  call,
  signUp,
  type DemoAccount,
  DEMO_CREATOR,
  FIRST_EXPERTS,
  MORE_EXPERTS,
  OTHER_CREATORS,
  PREP_QUESTIONS,
  WORKING_WEEK,
  planHistory,
  type SeededExpert,
  portraitPng,
  uploadPortrait,
  Timeline,
  seedUpcoming,
  seedApplicants,
} from "../demo/index.ts";
import type { CreatorKey, DemoExpert, ExpertKey } from "../demo/index.ts";
import type { AppContext } from "./context.ts";
import { devMailboxOn } from "../mail/index.ts";
import { TestPaymentProvider } from "../payments/index.ts";

// Demo data for a first start, created through the public API (and the admin's vetting command),
// so it obeys every rule a real user does: each account follows the link of its verification mail.
// With the test payment provider the marketplace also gets a past (../demo/history.ts: sessions
// completed, noted and reviewed, earnings) and bookings to come (../demo/upcoming.ts).

export { DEMO_PASSWORD, DEMO_CREATOR } from "../demo/index.ts";

/** What the seed uses of the API process: the read models, the event store, the payment provider, the clock. */
export type SeedDeps = Pick<
  AppContext,
  "db" | "store" | "experts" | "calendar" | "projected" | "payments" | "clock" | "mail" | "sweepGate"
>;

export type SeedOptions = {
  /**
   * The past and upcoming bookings, two more experts and more creators (default: yes, when the
   * payments go to the test provider, whose card pays them, and mail stays in the dev mailbox, since
   * their bookings mail demo addresses that reach nobody). Off: the three experts and the creator
   * alone, for suites that count what they make themselves.
   */
  history?: boolean;
};

/** The provider that pays the history's bookings, when the seed makes one: only the test provider's card can. */
const historyPayments = (deps: Pick<SeedDeps, "payments" | "mail">, options: SeedOptions): TestPaymentProvider | null =>
  options.history !== false && deps.payments instanceof TestPaymentProvider && devMailboxOn(deps.mail) ? deps.payments : null;

/** The demo experts' sign-in addresses a seed on these deps makes (for the start banner). */
export const demoExpertEmails = (deps: Pick<SeedDeps, "payments" | "mail">): string[] =>
  demoExperts(historyPayments(deps, {}) !== null).map((e) => e.email);

const demoExperts = (withHistory: boolean) => [...FIRST_EXPERTS, ...(withHistory ? MORE_EXPERTS : [])];

/** Vetting is done as the admin account (created at start), so the audit names a real user. */
async function seedAdmin(deps: SeedDeps): Promise<{ userId: string; role: "admin" }> {
  const firstAdmin = await deps.db.query<{ user_id: string }>(
    "SELECT user_id FROM accounts WHERE role = 'admin' ORDER BY created_at LIMIT 1",
  );
  return { userId: firstAdmin.rows[0]?.user_id ?? "seed", role: "admin" };
}

/** An expert's published, verified profile with a photo, weekly hours (`setSchedule`) and sessions. */
async function seedExpert(
  app: FastifyInstance,
  deps: SeedDeps,
  e: DemoExpert,
  setSchedule: (account: DemoAccount) => Promise<void>,
): Promise<SeededExpert> {
  const account = await signUp(app, deps.db, e, "expert");
  const { token, id } = account;
  const profile_image = await uploadPortrait(app, token, await portraitPng(...e.colours));
  const profile = {
    first_name: e.first_name,
    last_name: e.last_name,
    title: e.title,
    bio: e.bio,
    tags: e.tags,
    profile_image,
    published: true,
  };
  await call(app, "PATCH", "/experts/me", profile, token);
  await setSchedule(account);
  const sessionIds: string[] = [];
  for (const [index, s] of e.sessions.entries()) {
    const [prep_question_1, prep_question_2, prep_question_3] = PREP_QUESTIONS;
    const details = {
      session_details: "A focused one-to-one video call with written takeaways.",
      ideal_for: "creators, podcasters, makers",
    };
    const currency = e.currencies?.[index];
    const body = {
      ...s,
      ...details,
      prep_question_1,
      prep_question_2,
      prep_question_3,
      status: "published",
      ...(currency && { currency }),
    };
    sessionIds.push((await call<{ session: { id: string } }>(app, "POST", "/sessions", body, token)).session.id);
  }
  const admin = await seedAdmin(deps);
  // The admin's vetting goes straight to the experts' handler (there is no route for it outside the console).
  const verified = await deps.experts.handle(expertStream(id), { type: "VerifyExpert", expertId: id, actor: admin }, { actor: admin });
  if (verified.ok) await deps.projected(verified.value);
  return { expert: e, account, sessionIds };
}

/**
 * Seed once (nothing when any expert exists): verified experts with photos, sessions and schedules,
 * and creators; with the history, their past and upcoming bookings. Resolves to whether it seeded.
 */
export function seedDemoData(app: FastifyInstance, deps: SeedDeps, options: SeedOptions = {}): Promise<boolean> {
  // The history is written with the clock set back: this process's sweepers wait until it is all there.
  return deps.sweepGate.paused(() => seed(app, deps, options));
}

async function seed(app: FastifyInstance, deps: SeedDeps, options: SeedOptions): Promise<boolean> {
  const { rows } = await deps.db.query("SELECT 1 FROM experts LIMIT 1");
  if (rows.length) return false;
  const nowMs = Date.parse(deps.clock());
  const payments = historyPayments(deps, options);
  const withHistory = payments !== null;

  // With a history, the weekly hours were set weeks ago (on the timeline); without, now, through the API.
  const scheduleNow =
    (e: DemoExpert) =>
    async ({ id, token }: DemoAccount) => {
      const slots = WORKING_WEEK.map((weekday) => ({ weekday, ...e.hours }));
      await call(app, "POST", `/experts/${id}/schedule`, { timezone: e.timezone, slots }, token);
    };
  // Accounts side by side: each one's steps in order, but a password hash need not wait for another's.
  const [seededExperts, creatorAccounts] = await Promise.all([
    Promise.all(demoExperts(withHistory).map((e) => seedExpert(app, deps, e, withHistory ? async () => undefined : scheduleNow(e)))),
    Promise.all(
      [DEMO_CREATOR, ...(withHistory ? OTHER_CREATORS : [])].map(async (c) => [c.key, await signUp(app, deps.db, c, "creator")] as const),
    ),
  ]);
  await seedApplicants(app, deps.db, async (expertId, seenRevision, reason) => {
    const admin = await seedAdmin(deps);
    const command = {
      type: "DecideApplication" as const,
      expertId,
      actor: admin,
      seenRevision,
      decision: "request_changes" as const,
      reason,
      checklist: {},
    };
    const decided = await deps.experts.handle(expertStream(expertId), command, { actor: admin });
    if (!decided.ok) throw new Error(`seed: request changes: ${decided.refusal.code}`);
    await deps.projected(decided.value);
  });
  const experts = new Map<ExpertKey, SeededExpert>(seededExperts.map((s) => [s.expert.key, s]));
  const creators = new Map<CreatorKey, DemoAccount>(creatorAccounts);
  if (!payments) return true;

  const market = { experts, creators };
  const timeline = new Timeline(deps.store);
  const history = planHistory({ db: deps.db, projected: deps.projected, payments }, market, timeline, nowMs);
  await timeline.play();
  await history.shown();
  await seedUpcoming(app, { ...deps, payments }, market, history.bookingToCancel());
  return true;
}
