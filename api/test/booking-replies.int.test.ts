import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BookingReply, BookingRequestedReply } from "@booking/contracts";
import { buildApp } from "../src/main/app.ts";
import { startTestApi, type TestApi, type TestUser } from "./harness.ts";

// Booking replies go out through contracts' BookingReply (a strict schema): a field the view adds
// or drops without the schema fails here as a 500, and the OpenAPI document describes the reply.

let api: TestApi;
let expert: TestUser;
let creator: TestUser;
let sessionId: string;
const V1 = "/api/v1";

beforeAll(async () => {
  api = await startTestApi();
  expert = await api.user("expert", { firstName: "Eli" });
  creator = await api.user("creator", { firstName: "Cleo" });
  await api.call("PATCH", `${V1}/experts/me`, {
    user: expert,
    body: { first_name: "Eli", last_name: "Stone", title: "Podcast coach", published: true },
  });
  await api.approve(expert);
  const everyDay = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"].map((weekday) => ({
    weekday,
    start_local: "00:00",
    end_local: "23:30",
  }));
  await api.call("POST", `${V1}/experts/${expert.id}/schedule`, { user: expert, body: { timezone: "UTC", slots: everyDay } });
  const s = await api.call("POST", `${V1}/sessions`, {
    user: expert,
    body: { title: "Launch plan", price: 90, length_minutes: 30, prep_question_1: "Why?", status: "published" },
  });
  sessionId = s.json().session.id;
});
afterAll(() => api.close());

const times = async () => (await api.call("GET", `${V1}/sessions/${sessionId}/availability`)).json().times as string[];

async function ok(method: "GET" | "POST" | "PATCH", url: string, user: TestUser, body?: unknown) {
  const r = await api.call(method, `${V1}${url}`, { user, body });
  expect(r.statusCode, `${method} ${url}: ${r.body}`).toBeLessThan(300);
  return r.json();
}

describe("booking replies are contracts' BookingReply", () => {
  it("every booking route answers with exactly the schema's fields", async () => {
    const { booking } = BookingRequestedReply.parse(
      await ok("POST", "/bookings", creator, { session_id: sessionId, scheduled_time: (await times())[3] }),
    );
    expect(booking).toMatchObject({
      status: "pending",
      session_title: "Launch plan",
      price: 90,
      expert_name: "Eli Stone",
      prep_question_1: "Why?",
    });
    for (const reply of [
      await ok("GET", `/bookings/${booking.id}`, creator),
      await ok("PATCH", `/bookings/${booking.id}/prep`, creator, { prep_response_1: "To launch" }),
      await ok("PATCH", `/bookings/${booking.id}/status`, expert, { status: "more_info_requested", info_request_note: "Which market?" }),
      ...(await ok("GET", "/bookings/creator/me", creator)),
      ...(await ok("GET", "/bookings/expert/me", expert)),
      ...(await ok("GET", `/bookings/creator/${creator.id}`, creator)),
    ]) {
      expect(reply.cancelled_at).toBeNull();
      expect(Object.keys(reply).sort()).toEqual(Object.keys(BookingReply.shape).sort());
      BookingReply.parse(reply);
    }
  });

  it("a cancelled booking says when, to its parties and to the console", async () => {
    const t = (await times())[5]!;
    const { booking } = await ok("POST", "/bookings", creator, { session_id: sessionId, scheduled_time: t });
    const cancelled = await ok("PATCH", `/bookings/${booking.id}/status`, creator, { status: "cancelled", reason: "Clash" });
    expect(cancelled).toMatchObject({ status: "cancelled", cancelled_by: "creator" });
    expect(Date.parse(cancelled.cancelled_at)).toBeGreaterThanOrEqual(Date.parse(booking.created_at));
    const admin = await api.user("admin");
    expect((await ok("GET", `/admin/bookings/${booking.id}`, admin)).cancelled_at).toBe(cancelled.cancelled_at);
  });

  it("the OpenAPI document describes the reply of GET /bookings/{id} and the dashboards", async () => {
    const doc = (await api.call("GET", `${V1}/docs`)).json();
    const one = doc.paths["/bookings/{id}"].get.responses["200"].content["application/json"].schema;
    expect(Object.keys(one.properties).sort()).toEqual(Object.keys(BookingReply.shape).sort());
    expect(doc.paths["/bookings/creator/me"].get.responses["200"].content["application/json"].schema.type).toBe("array");
    expect(
      doc.paths["/bookings"].post.responses["201"].content["application/json"].schema.properties.booking.properties.cancel_reason,
    ).toBeDefined();
  });

  it("while the read model is behind, POST /bookings answers with the same shape, made from what was written (the names as read before the write)", async () => {
    const t = (await times())[7]!;
    await api.stopProjector();
    // An app whose routes do not wait for the read models (they are handed `projected` once, when built).
    const behind = await buildApp({ ...api.ctx, projected: async () => undefined });
    const r = await behind.inject({
      method: "POST",
      url: `${V1}/bookings`,
      headers: { authorization: `Bearer ${creator.token}` },
      payload: { session_id: sessionId, scheduled_time: t },
    });
    await behind.close();
    expect(r.statusCode, r.body).toBe(201);
    const { booking } = BookingRequestedReply.parse(r.json());
    expect(booking).toMatchObject({
      status: "pending",
      scheduled_time: t,
      creator_id: creator.id,
      expert_id: expert.id,
      price: 90,
      paid: false,
      prep_question_1: "Why?",
      creator_name: "Cleo Test",
    });
  });
});
