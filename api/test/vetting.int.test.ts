import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { EXPERT_STANDARDS_VERSION, errorCatalogue, type AdminApplicationReply, type ApplicationReply } from "@booking/contracts";
import { calendarStream } from "@booking/engine";
import { MailReactor } from "../src/mail/reactor.ts";
import { TEST_JWT_SECRET, startTestApi, type TestApi, type TestUser } from "./harness.ts";

// Vetted means vetted (issue 30), through the routes: a new expert is neither listed nor bookable until
// they apply and an admin approves them; the review asks for changes and refuses a decision on an
// application that changed since it was opened; a suspension takes the expert off the listing, refuses
// new requests from its position on, and lists the open bookings to the admin instead of cancelling them.

const V1 = "/api/v1";
let api: TestApi;
let admin: TestUser;

const answers = {
  expertise: "Podcast growth",
  title: "Audio producer",
  bio: "Ten years producing interview podcasts for independent creators, from the first episode to a weekly show.",
  links: ["https://example.com/portfolio", "http://example.org/show"],
  years_of_experience: 10,
  creators_can_expect: "A plan for your next ten episodes.",
  standards_version: EXPERT_STANDARDS_VERSION,
};
const everyDay = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"].map((weekday) => ({
  weekday,
  start_local: "00:00",
  end_local: "23:30",
}));

type Expert = { user: TestUser; slug: string; sessionId: string };

/** An expert with a published profile, hours every day and a published session: all a creator needs, but an approval. */
async function publishedExpert(firstName: string): Promise<Expert> {
  const user = await api.user("expert", { firstName });
  const profile = await api.call("PATCH", `${V1}/experts/me`, {
    user,
    body: { first_name: firstName, last_name: "Vale", title: "Producer", published: true },
  });
  expect(profile.statusCode, profile.body).toBe(200);
  await api.call("POST", `${V1}/experts/${user.id}/schedule`, { user, body: { timezone: "UTC", slots: everyDay } });
  const session = await api.call("POST", `${V1}/sessions`, {
    user,
    body: { title: "Show plan", price: 90, length_minutes: 30, prep_question_1: "Your show?", status: "published" },
  });
  expect(session.statusCode, session.body).toBe(201);
  return { user, slug: profile.json().slug as string, sessionId: session.json().session.id as string };
}

const apply = (e: Expert, body: unknown = answers) => api.call("POST", `${V1}/experts/me/application`, { user: e.user, body });
const applicationOf = async (e: Expert) =>
  (await api.call("GET", `${V1}/experts/me/application`, { user: e.user })).json<ApplicationReply>();
const opened = async (e: Expert) =>
  (await api.call("GET", `${V1}/admin/applications/${e.user.id}`, { user: admin })).json<AdminApplicationReply>();
const review = (e: Expert, step: "review" | "notes" | "decision", body: Record<string, unknown>) =>
  api.call("POST", `${V1}/admin/applications/${e.user.id}/${step}`, { user: admin, body });
const times = async (e: Expert) => (await api.call("GET", `${V1}/sessions/${e.sessionId}/availability`)).json<{ times: string[] }>().times;
const listed = async (e: Expert) => (await api.call("GET", `${V1}/experts`)).json<{ id: string }[]>().some((x) => x.id === e.user.id);
const book = async (e: Expert, creator: TestUser, at: string) =>
  api.call("POST", `${V1}/bookings`, { user: creator, body: { session_id: e.sessionId, scheduled_time: at } });
const tomorrowAt10 = () => `${new Date(Date.now() + 86_400_000).toISOString().slice(0, 10)}T10:00:00.000Z`;

beforeAll(async () => {
  api = await startTestApi();
  admin = await api.user("admin");
});
afterAll(async () => api?.close());

describe("an expert's application", () => {
  it("a new expert is neither listed nor bookable: no public profile, no times, a booking request refused", async () => {
    const fresh = await publishedExpert("Nell");
    expect(await listed(fresh)).toBe(false);
    expect((await api.call("GET", `${V1}/experts/${fresh.slug}`)).statusCode).toBe(404);
    expect((await api.call("GET", `${V1}/experts/${fresh.slug}`, { user: fresh.user })).statusCode).toBe(200);
    expect(await times(fresh)).toEqual([]);
    const refused = await book(fresh, await api.user("creator"), tomorrowAt10());
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toEqual({ code: "expert_not_approved", message: errorCatalogue.expert_not_approved.message });
    expect(await applicationOf(fresh)).toMatchObject({
      status: "draft",
      revision: 0,
      answers: null,
      standards_version: EXPERT_STANDARDS_VERSION,
    });
  });

  it("refuses a missing field, a link that is not http(s), a bio of NUL or 50,000 characters and old standards, and keeps nothing", async () => {
    const e = await publishedExpert("Bad");
    const cases: [unknown, string][] = [
      [{ ...answers, expertise: undefined }, "application_field_required"],
      [{ ...answers, links: ["javascript:alert(1)"] }, "application_link_invalid"],
      [{ ...answers, links: [] }, "application_link_invalid"],
      // NUL is refused at the boundary for every body (Postgres stores no NUL), before the bio's own rule.
      [{ ...answers, bio: "\u0000".repeat(100) }, "invalid_request"],
      [{ ...answers, bio: "x".repeat(50_000) }, "application_bio_invalid"],
      [{ ...answers, years_of_experience: "ten" }, "application_years_invalid"],
      [{ ...answers, standards_version: "standards-2020-01" }, "application_standards_not_agreed"],
    ];
    for (const [body, code] of cases) {
      const r = await apply(e, body);
      expect(r.statusCode, r.body).toBe(400);
      expect(r.json(), JSON.stringify(body).slice(0, 80)).toEqual({
        code,
        message: errorCatalogue[code as keyof typeof errorCatalogue].message,
      });
    }
    expect(await applicationOf(e)).toMatchObject({ status: "draft", revision: 0 });
  });

  it("applies, is reviewed and asked for a change with a note, resubmits, is approved with the checklist: then listed and booked", async () => {
    const e = await publishedExpert("Ada");
    const sent = await apply(e);
    expect(sent.statusCode, sent.body).toBe(201);
    expect(sent.json()).toMatchObject({ status: "submitted", revision: 1, answers: { links: answers.links, years_of_experience: 10 } });
    const twice = await apply(e);
    expect(twice.json()).toMatchObject({ code: "application_already_submitted" });
    expect(twice.statusCode).toBe(409);

    // The queue, oldest first: an expert who applied later comes after.
    const later = await publishedExpert("Later");
    await apply(later);
    const queue = (await api.call("GET", `${V1}/admin/applications`, { user: admin })).json<AdminApplicationReply[]>().map((a) => a.id);
    expect(queue.indexOf(e.user.id)).toBeGreaterThanOrEqual(0);
    expect(queue.indexOf(e.user.id)).toBeLessThan(queue.indexOf(later.user.id));

    const first = await opened(e);
    expect(first).toMatchObject({ status: "submitted", first_name: "Ada", answers: { expertise: "Podcast growth" } });
    expect((await review(e, "review", { seen_revision: first.revision })).json()).toMatchObject({ status: "in_review" });
    // A decision on the application as it was before the review started is refused: reload.
    const stale = await review(e, "decision", { seen_revision: first.revision, decision: "approve", reason: "Fine" });
    expect(stale.statusCode).toBe(409);
    expect(stale.json()).toEqual({ code: "application_changed", message: "This application changed since you opened it. Please reload." });
    const inReview = await opened(e);
    await review(e, "notes", { seen_revision: inReview.revision, note: "Second link does not load" });
    const noted = await opened(e);
    const changes = await review(e, "decision", {
      seen_revision: noted.revision,
      decision: "request_changes",
      reason: "Please replace the second link with your show",
      checklist: { identity_plausible: true, links_work: false },
    });
    expect(changes.json()).toMatchObject({ status: "changes_requested" });
    expect(await applicationOf(e)).toMatchObject({ status: "changes_requested", reason: "Please replace the second link with your show" });
    expect(await listed(e)).toBe(false);

    const resent = await apply(e, { ...answers, links: ["https://example.com/portfolio", "https://example.com/show"] });
    expect(resent.json()).toMatchObject({
      status: "submitted",
      answers: { links: ["https://example.com/portfolio", "https://example.com/show"] },
    });
    // The admin who opened it before the resubmission is told to reload.
    expect((await review(e, "decision", { seen_revision: noted.revision + 1, decision: "approve", reason: "Good" })).statusCode).toBe(409);
    const checklist = { identity_plausible: true, expertise_shown: true, links_work: true, photo_is_person: true, bio_professional: true };
    const approved = await review(e, "decision", {
      seen_revision: (await opened(e)).revision,
      decision: "approve",
      reason: "Strong work",
      checklist,
    });
    expect(approved.json()).toMatchObject({ status: "approved" });
    expect((await opened(e)).history.map((h) => [h.type, h.reason ?? h.note])).toEqual([
      ["ApplicationSubmitted", null],
      ["ApplicationReviewStarted", null],
      ["ApplicationNoted", "Second link does not load"],
      ["ApplicationChangesRequested", "Please replace the second link with your show"],
      ["ApplicationSubmitted", null],
      ["ApplicationApproved", "Strong work"],
    ]);
    expect((await opened(e)).history.at(-1)).toMatchObject({ by: admin.id, checklist });
    // Time travel: the application as it stood just after the request for changes, its history up to then.
    const history = (await opened(e)).history;
    const asOf = async (at: string) =>
      api.call("GET", `${V1}/admin/applications/${e.user.id}/as-of?at=${encodeURIComponent(at)}`, { user: admin });
    const then = (await asOf(history[3]!.at)).json<AdminApplicationReply>();
    expect(then).toMatchObject({ status: "changes_requested", reason: "Please replace the second link with your show" });
    expect(then.answers?.links).toEqual(answers.links);
    expect(then.history.map((h) => h.type)).toEqual(history.slice(0, 4).map((h) => h.type));
    expect((await asOf(history[1]!.at)).json()).toMatchObject({ status: "in_review", reason: null });
    const before = await asOf("2000-01-01T00:00:00Z");
    expect([before.statusCode, before.json()]).toEqual([
      404,
      { code: "as_of_before_expert", message: "This expert had not saved a profile yet at that time." },
    ]);
    expect((await asOf("yesterday")).statusCode).toBe(400);

    expect(await applicationOf(e)).toMatchObject({ status: "approved", reason: "Strong work" });
    expect(await listed(e)).toBe(true);
    expect((await api.call("GET", `${V1}/experts/${e.slug}`)).statusCode).toBe(200);
    const open = await times(e);
    expect(open.length).toBeGreaterThan(0);
    expect((await book(e, await api.user("creator"), open[0]!)).statusCode).toBe(201);
  });

  it("each decision is mailed to the expert with the team's reason; a review step or a note is not", async () => {
    const e = await publishedExpert("Mia");
    await apply(e);
    await review(e, "notes", { seen_revision: 1, note: "Internal only" });
    await review(e, "decision", { seen_revision: 2, decision: "request_changes", reason: "Add a link to your show" });
    await apply(e);
    await review(e, "decision", { seen_revision: 4, decision: "approve", reason: "Strong work" });
    const settings = { publicUrl: "https://sessions.example.com" };
    await new MailReactor({ log: api.ctx.store, db: api.ctx.db, settings, linkSecret: TEST_JWT_SECRET, clock: api.ctx.clock }).catchUp();
    const { rows } = await api.ctx.db.query(
      "SELECT subject, text_body FROM mail_outbox WHERE user_id = $1 AND kind = 'vetting_decided' ORDER BY created_at, subject",
      [e.user.id],
    );
    expect(rows.map((r) => r.subject)).toEqual(["Your application: a change is needed", "You are approved: creators can book you"]);
    expect(rows[0].text_body).toContain("Add a link to your show");
    expect(rows[0].text_body).toContain(`https://sessions.example.com/expert-dashboard/${e.user.id}/application`);
    expect(rows.map((r) => r.text_body).join()).not.toContain("Internal only");
  });

  it("a rejected expert may apply again only after the waiting period", async () => {
    const e = await publishedExpert("Rex");
    await apply(e);
    const rejected = await review(e, "decision", { seen_revision: 1, decision: "reject", reason: "No work shown" });
    expect(rejected.json()).toMatchObject({ status: "rejected" });
    const mine = await applicationOf(e);
    expect(mine).toMatchObject({ status: "rejected", reason: "No work shown" });
    const again = await apply(e);
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toBe(`You can apply again from ${mine.may_reapply_from!.slice(0, 10)}.`);
  });
});

describe("suspension", () => {
  it("takes the expert off the listing and refuses new requests; open bookings are listed, not cancelled; reinstating returns them", async () => {
    const e = await publishedExpert("Sam");
    await api.approve(e.user);
    const creator = await api.user("creator");
    const [at] = await times(e);
    const open = await book(e, creator, at!);
    expect(open.statusCode).toBe(201);

    const suspended = await api.call("POST", `${V1}/admin/experts/${e.user.id}/suspension`, {
      user: admin,
      body: { reason: "Three no-shows" },
    });
    expect(suspended.statusCode, suspended.body).toBe(200);
    expect(suspended.json()).toEqual({
      status: "suspended",
      open_bookings: [{ id: open.json().booking.id, scheduled_time: at, status: "pending", creator_id: creator.id }],
    });
    expect((await api.call("GET", `${V1}/bookings/${open.json().booking.id}`, { user: creator })).json().status).toBe("pending");
    expect(await listed(e)).toBe(false);
    expect(await times(e)).toEqual([]);
    const refused = await book(e, await api.user("creator"), tomorrowAt10());
    expect(refused.json()).toEqual({ code: "expert_suspended", message: errorCatalogue.expert_suspended.message });
    expect(await applicationOf(e)).toMatchObject({ status: "suspended", reason: "Three no-shows" });

    const back = await api.call("POST", `${V1}/admin/experts/${e.user.id}/reinstatement`, { user: admin, body: { reason: "Resolved" } });
    expect(back.json()).toEqual({ status: "approved", open_bookings: [] });
    expect(await listed(e)).toBe(true);
    const [next] = await times(e);
    expect((await book(e, await api.user("creator"), next!)).statusCode).toBe(201);
  });

  it("a suspension racing 50 booking requests: none is accepted after the suspension's position", async () => {
    const e = await publishedExpert("Race");
    await api.approve(e.user);
    const slots = (await times(e)).filter((_, i) => i % 2 === 0).slice(0, 50);
    const creators = await Promise.all(slots.map(() => api.user("creator")));
    const requests = slots.map((at, i) => book(e, creators[i]!, at));
    const suspension = api.call("POST", `${V1}/admin/experts/${e.user.id}/suspension`, { user: admin, body: { reason: "Race" } });
    const replies = await Promise.all(requests);
    expect((await suspension).statusCode).toBe(200);

    const outcomes = replies.map((r) => (r.statusCode === 201 ? "booked" : `${r.statusCode} ${r.json().code}`));
    expect(new Set(outcomes.filter((o) => o !== "booked"))).toEqual(
      new Set(outcomes.includes("409 expert_suspended") ? ["409 expert_suspended"] : []),
    );
    const { events } = await api.ctx.store.readStream(calendarStream(e.user.id));
    const pausedAt = events.findIndex((ev) => ev.type === "BookingsPaused");
    expect(pausedAt).toBeGreaterThan(0);
    expect(events.slice(pausedAt).filter((ev) => ev.type === "BookingRequested")).toEqual([]);
    expect(events.filter((ev) => ev.type === "BookingRequested")).toHaveLength(outcomes.filter((o) => o === "booked").length);
  });
});
