import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  AdminReviewReply,
  BookingReviewReply,
  ExpertDetailReply,
  ExpertListReply,
  errorCatalogue,
  type ErrorCode,
} from "@booking/contracts";
import { calendarStream, reviewStream } from "@booking/engine";
import { startTestApi, type TestApi, type TestUser } from "./harness.ts";

// Reviews end to end over real Postgres: a completed booking's creator reviews it once and edits
// it for 14 days (the harness's clock moves), the expert replies once, the profile shows the
// review (first name and last initial) and the listing its average and count, an admin hides it
// with a reason kept in the history; every bad input is a catalogue refusal.

const V1 = "/api/v1";
const DAY = 86_400_000;
let now = Date.now();
let api: TestApi;
let expert: TestUser;
let otherExpert: TestUser;
let creator: TestUser;
let otherCreator: TestUser;
let admin: TestUser;
let sessionId: string;
let slug: string;

async function ok(method: "GET" | "POST" | "PATCH" | "PUT", url: string, user: TestUser, body?: unknown) {
  const r = await api.call(method, `${V1}${url}`, { user, body });
  expect(r.statusCode, `${method} ${url}: ${r.body}`).toBeLessThan(300);
  return r.json();
}

async function refused(method: "GET" | "POST" | "PATCH" | "PUT", url: string, user: TestUser | undefined, body: unknown, code: ErrorCode) {
  const r = await api.call(method, `${V1}${url}`, { user, body });
  expect(r.json(), `${method} ${url} ${JSON.stringify(body)?.slice(0, 80)}`).toEqual({ code, message: errorCatalogue[code].message });
  expect(r.statusCode).toBe(errorCatalogue[code].status);
  expect(r.statusCode).toBeLessThan(500);
}

/** A booking of the session at the first free time, paid and confirmed; completed once its end has passed (the clock moves past it). */
async function booking(by: TestUser, state: "confirmed" | "completed"): Promise<string> {
  const times = (await ok("GET", `/sessions/${sessionId}/availability`, by)).times as string[];
  const start = times[0]!;
  const { booking: b } = await ok("POST", "/bookings", by, { session_id: sessionId, scheduled_time: start });
  const paid = await api.ctx.calendar.handle(calendarStream(expert.id), {
    type: "RecordPayment",
    expertId: expert.id,
    bookingId: b.id,
    actor: { userId: "payments", role: "system" },
    paymentId: `pi_${b.id}`,
    amountCents: 9_000,
    provider: "test",
  });
  if (!paid.ok) throw new Error(JSON.stringify(paid.refusal));
  await api.ctx.projected(paid.value);
  await ok("PATCH", `/bookings/${b.id}/status`, expert, { status: "confirmed" });
  if (state === "completed") {
    now = Date.parse(start) + 31 * 60_000;
    await ok("PATCH", `/bookings/${b.id}/status`, expert, { status: "completed" });
  }
  return b.id;
}

const profile = async () => ExpertDetailReply.parse(await ok("GET", `/experts/${slug}`, creator));
const card = async () => ExpertListReply.parse((await api.call("GET", `${V1}/experts`)).json()).find((e) => e.id === expert.id)!;

beforeAll(async () => {
  api = await startTestApi({ clock: () => new Date(now).toISOString() });
  expert = await api.user("expert", { firstName: "Eli" });
  otherExpert = await api.user("expert", { firstName: "Ora" });
  creator = await api.user("creator", { firstName: "Cleo" });
  otherCreator = await api.user("creator", { firstName: "Dan" });
  admin = await api.user("admin");
  slug = (await ok("PATCH", "/experts/me", expert, { first_name: "Eli", last_name: "Stone", title: "Podcast coach", published: true }))
    .slug;
  await api.approve(expert);
  const everyDay = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"].map((weekday) => ({
    weekday,
    start_local: "00:00",
    end_local: "23:30",
  }));
  await ok("POST", `/experts/${expert.id}/schedule`, expert, { timezone: "UTC", slots: everyDay });
  sessionId = (
    await ok("POST", "/sessions", expert, {
      title: "Launch plan",
      price: 90,
      length_minutes: 30,
      prep_question_1: "Why?",
      status: "published",
    })
  ).session.id;
});
afterAll(() => api.close());

describe("reviews", () => {
  let reviewed: string;
  let leftAt: number;

  it("before any review the listing shows no rating and the profile no reviews", async () => {
    expect(await card()).toMatchObject({ rating: null, review_count: 0 });
    expect((await profile()).reviews).toEqual([]);
  });

  it("the creator of a completed booking leaves a review; its parties see it, nobody else", async () => {
    reviewed = await booking(creator, "completed");
    leftAt = now;
    expect(await ok("GET", `/bookings/${reviewed}/review`, creator)).toEqual({ review: null });
    const r = await api.call("POST", `${V1}/bookings/${reviewed}/review`, {
      user: creator,
      body: { rating: 5, text: "  Clear, kind and practical.  " },
    });
    expect(r.statusCode, r.body).toBe(201);
    const review = BookingReviewReply.parse(r.json());
    expect(review).toMatchObject({
      booking_id: reviewed,
      rating: 5,
      text: "Clear, kind and practical.",
      created_at: new Date(leftAt).toISOString(),
      edited_at: null,
      reply: null,
      hidden: false,
    });
    expect(review.editable_until).toBe(new Date(leftAt + 14 * DAY).toISOString());
    expect((await ok("GET", `/bookings/${reviewed}/review`, expert)).review).toEqual(review);
    await refused("GET", `/bookings/${reviewed}/review`, otherCreator, undefined, "booking_not_found");
  });

  it("the profile shows it with stars, text, date and the creator's first name and last initial; the listing its average and count", async () => {
    const [shown] = (await profile()).reviews;
    expect(shown).toEqual({
      id: expect.any(String),
      rating: 5,
      review: "Clear, kind and practical.",
      created_at: new Date(leftAt).toISOString(),
      creator: { first_name: "Cleo", last_initial: "T." },
      reply: null,
    });
    expect(await card()).toMatchObject({ rating: 5, review_count: 1 });
  });

  it("refuses every bad review with the catalogue's message", async () => {
    const url = `/bookings/${reviewed}/review`;
    // Another creator learns nothing of the booking; its expert and an admin are told only its creator reviews it.
    await refused("POST", url, otherCreator, { rating: 4, text: "Not mine" }, "booking_not_found");
    await refused("POST", url, expert, { rating: 5, text: "Me!" }, "review_not_your_booking");
    await refused("POST", url, admin, { rating: 5, text: "Admin" }, "review_not_your_booking");
    await refused("POST", url, creator, { rating: 4, text: "Again" }, "review_already_left");
    for (const rating of [0, 6, 3.5, -2, "5", null]) await refused("POST", url, creator, { rating, text: "x" }, "review_rating_invalid");
    await refused("POST", url, creator, { rating: 4, text: "x".repeat(2001) }, "review_text_too_long");
    await refused("POST", url, creator, { rating: 4, text: "x", stars: 4 }, "invalid_request");
    await refused("POST", `/bookings/no-such-booking/review`, creator, { rating: 4, text: "x" }, "booking_not_found");
    await refused("POST", url, undefined, { rating: 4, text: "x" }, "no_access_token");
    const confirmed = await booking(creator, "confirmed");
    await refused("POST", `/bookings/${confirmed}/review`, creator, { rating: 4, text: "Too early" }, "review_booking_not_completed");
    await refused("PATCH", `/bookings/${confirmed}/review`, creator, { rating: 4, text: "None yet" }, "review_not_found");
  });

  it("the expert replies once, in public; another expert, the creator, a second reply and an empty or long reply are refused", async () => {
    const url = `/bookings/${reviewed}/review/reply`;
    // Another expert learns nothing of the booking; its creator and an admin are told only its expert replies.
    await refused("POST", url, otherExpert, { text: "Not my session" }, "booking_not_found");
    await refused("POST", url, creator, { text: "Me too" }, "review_reply_not_expert");
    await refused("POST", url, admin, { text: "Admin" }, "review_reply_not_expert");
    await refused("POST", url, expert, { text: "   " }, "review_reply_text_invalid");
    await refused("POST", url, expert, { text: "x".repeat(2001) }, "review_reply_text_invalid");
    const r = await api.call("POST", `${V1}${url}`, { user: expert, body: { text: "Thank you, Cleo!" } });
    expect(r.statusCode, r.body).toBe(201);
    expect(BookingReviewReply.parse(r.json()).reply).toEqual({ text: "Thank you, Cleo!", created_at: new Date(now).toISOString() });
    await refused("POST", url, expert, { text: "And again" }, "review_reply_exists");
    expect((await profile()).reviews[0]!.reply).toEqual({ text: "Thank you, Cleo!", created_at: new Date(now).toISOString() });
  });

  it("a second review (of another booking) moves the average; the listing shows it at once", async () => {
    const second = await booking(otherCreator, "completed");
    await ok("POST", `/bookings/${second}/review`, otherCreator, { rating: 4 });
    expect(await card()).toMatchObject({ rating: 4.5, review_count: 2 });
    expect((await profile()).reviews.map((r) => r.rating)).toEqual([4, 5]);
  });

  it("its creator edits it until 14 days after it was first written, not after", async () => {
    now = leftAt + 14 * DAY - 1000;
    const edited = BookingReviewReply.parse(
      await ok("PATCH", `/bookings/${reviewed}/review`, creator, { rating: 3, text: "Good, a bit rushed." }),
    );
    expect(edited).toMatchObject({
      rating: 3,
      text: "Good, a bit rushed.",
      created_at: new Date(leftAt).toISOString(),
      edited_at: new Date(now).toISOString(),
    });
    expect(await card()).toMatchObject({ rating: 3.5, review_count: 2 });
    await refused("PATCH", `/bookings/${reviewed}/review`, otherCreator, { rating: 1, text: "Not mine" }, "booking_not_found");
    await refused("PATCH", `/bookings/${reviewed}/review`, expert, { rating: 1, text: "Not mine" }, "review_not_your_booking");
    await refused("PATCH", `/bookings/${reviewed}/review`, creator, { rating: 2.5, text: "x" }, "review_rating_invalid");
    now = leftAt + 14 * DAY + 1;
    await refused("PATCH", `/bookings/${reviewed}/review`, creator, { rating: 1, text: "Changed my mind" }, "review_edit_window_closed");
  });

  it("an admin hides a review with a reason: it leaves the profile and the rating, and stays in the console and the history", async () => {
    await refused("PUT", `/admin/reviews/${reviewed}`, admin, { reason: "  " }, "review_hide_reason_required");
    await refused("PUT", `/admin/reviews/${reviewed}`, admin, {}, "review_hide_reason_required");
    await refused("PUT", `/admin/reviews/${reviewed}`, creator, { reason: "Mine" }, "forbidden");
    await refused("PUT", `/admin/reviews/no-such-booking`, admin, { reason: "Spam" }, "review_not_found");
    const hidden = AdminReviewReply.parse(await ok("PUT", `/admin/reviews/${reviewed}`, admin, { reason: "Names a third party" }));
    expect(hidden).toMatchObject({
      id: reviewed,
      hidden: true,
      hidden_reason: "Names a third party",
      hidden_by: admin.id,
      creator_name: "Cleo Test",
      expert_name: "Eli Stone",
    });
    expect((await profile()).reviews.map((r) => r.rating)).toEqual([4]);
    expect(await card()).toMatchObject({ rating: 4, review_count: 1 });
    const list = await api.call("GET", `${V1}/admin/reviews?filter=${encodeURIComponent(JSON.stringify({ hidden: true }))}`, {
      user: admin,
    });
    expect(list.headers["content-range"]).toBe("reviews 0-0/1");
    expect(list.json().map((r: AdminReviewReply) => r.id)).toEqual([reviewed]);
    const history = (await api.ctx.store.readStream(reviewStream(reviewed))).events.map((e) => e.type);
    expect(history).toEqual(["ReviewLeft", "ReviewReplied", "ReviewEdited", "ReviewHidden"]);
  });
});
