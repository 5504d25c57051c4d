import type { FastifyInstance } from "fastify";
import type pg from "pg";
import { CURRENT_TERMS_VERSION } from "@booking/contracts";
import { expertStream } from "@booking/engine";
import { lastLinkSentTo } from "./auth/address-mails.ts";
import type { ExpertCommands } from "./commands.ts";
import type { Projected } from "./read-your-writes.ts";

// Demo data for a first start, created through the public API (and the admin's vetting command),
// so it obeys every rule a real user does: each account follows the link of its verification mail.

export const DEMO_PASSWORD = "demo-password-1";
export const DEMO_CREATOR = { email: "creator@example.com", first_name: "Casey", last_name: "Rivera" };

const experts = [
  { email: "ava@example.com", first_name: "Ava", last_name: "Chen", title: "Growth Strategist", timezone: "America/New_York", tags: ["Growth Strategy", "Content Strategy", "Community Building"],
    bio: "I have helped more than 200 creators grow an audience that pays.\n\nLet's find the next step for yours.",
    sessions: [{ title: "Audience growth plan", price: 150, length_minutes: 60 }, { title: "Quick channel review", price: 60, length_minutes: 30 }] },
  { email: "marcus@example.com", first_name: "Marcus", last_name: "Reed", title: "Brand Partnerships Advisor", timezone: "Europe/London", tags: ["Brand Strategy", "Revenue Strategy", "Fan Monetization"],
    bio: "Former agency lead. I negotiate brand deals for podcasters and makers.", sessions: [{ title: "Brand deal review", price: 200, length_minutes: 60 }, { title: "Rate card workshop", price: 300, length_minutes: 90 }] },
  { email: "sofia@example.com", first_name: "Sofia", last_name: "Alvarez", title: "Intellectual Property Lawyer", timezone: "America/Los_Angeles", tags: ["Legal Guidance", "Intellectual Property Law", "Business Strategy"],
    bio: "Contracts, trademarks and licensing for independent creators.", sessions: [{ title: "Contract check", price: 250, length_minutes: 60 }] },
];

async function call(app: FastifyInstance, method: "POST" | "PATCH" | "PUT", url: string, body: unknown, token?: string) {
  const r = await app.inject({ method, url: `/api/v1${url}`, payload: body as object, headers: token ? { authorization: `Bearer ${token}` } : {} });
  if (r.statusCode >= 300) throw new Error(`seed: ${method} ${url} answered ${r.statusCode} ${r.body}`);
  return r.json() as Record<string, unknown>;
}

async function signUp(app: FastifyInstance, db: pg.Pool, person: { email: string; first_name: string; last_name: string }, role: "creator" | "expert") {
  await call(app, "POST", "/auth/signup", { email: person.email, first_name: person.first_name, last_name: person.last_name, password: DEMO_PASSWORD, role });
  const sent = await lastLinkSentTo(db, "verify_email", person.email);
  if (!sent) throw new Error(`seed: no verification mail for ${person.email}`);
  // Demo addresses reach nobody: the mail is kept (skipped, not sent) and the seed follows its link.
  await db.query("UPDATE mail_outbox SET status = 'skipped', skipped_reason = 'demo account, verified by the seed', updated_at = now() WHERE message_id = $1 AND status = 'pending'", [sent.messageId]);
  const session = await call(app, "POST", "/auth/verify", { token: sent.token });
  const token = session.access_token as string;
  await call(app, "POST", "/terms/accept", { version_id: CURRENT_TERMS_VERSION }, token);
  return { token, id: (session.user as { id: string }).id };
}

/** Seed once: experts with published, verified profiles, sessions and schedules, and a creator. */
/** The admin's vetting goes straight to the experts' handler (there is no route for it outside the console). */
export type SeedDeps = { db: pg.Pool; experts: ExpertCommands; projected: Projected };

export async function seedDemoData(app: FastifyInstance, { db, experts: expertCommands, projected }: SeedDeps): Promise<boolean> {
  const { rows } = await db.query("SELECT 1 FROM experts LIMIT 1");
  if (rows.length) return false;
  for (const e of experts) {
    const { token, id } = await signUp(app, db, e, "expert");
    await call(app, "PATCH", "/experts/me", { first_name: e.first_name, last_name: e.last_name, title: e.title, bio: e.bio, tags: e.tags, published: true }, token);
    const weekdays = ["monday", "tuesday", "wednesday", "thursday", "friday"].map((weekday) => ({ weekday, start_local: "09:00", end_local: "17:00" }));
    await call(app, "POST", `/experts/${id}/schedule`, { timezone: e.timezone, slots: weekdays }, token);
    for (const s of e.sessions) {
      await call(app, "POST", "/sessions", { ...s, description: `${s.title} with ${e.first_name}`, prep_question_1: "What would make this session a success for you?", prep_question_2: "Where are you today?", prep_question_3: "What have you tried so far?", session_details: "A focused one-to-one video call with written takeaways.", ideal_for: "creators, podcasters, makers", status: "published" }, token);
    }
    // Vetted by the admin account (created at start), so the audit names a real user.
    const adminId = (await db.query<{ user_id: string }>("SELECT user_id FROM accounts WHERE role = 'admin' ORDER BY created_at LIMIT 1")).rows[0]?.user_id ?? "seed";
    const admin = { userId: adminId, role: "admin" as const };
    const verified = await expertCommands.handle(expertStream(id), { type: "VerifyExpert", expertId: id, actor: admin }, { actor: admin });
    if (verified.ok) await projected(verified.value);
  }
  await signUp(app, db, DEMO_CREATOR, "creator");
  return true;
}
