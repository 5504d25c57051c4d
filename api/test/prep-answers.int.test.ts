import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestApi, type TestApi, type TestUser } from "./harness.ts";

// Issue 27.10: the creator answers the questions the session asked, one answer each, and the
// booking (and so the console) holds each answer beside its question.

let api: TestApi;
let expert: TestUser;
let sessionId: string;
const V1 = "/api/v1";

beforeAll(async () => {
  api = await startTestApi();
  expert = await api.user("expert", { firstName: "Pia" });
  await api.call("PATCH", `${V1}/experts/me`, {
    user: expert,
    body: { first_name: "Pia", last_name: "Stone", title: "Coach", published: true },
  });
  await api.approve(expert);
  const everyDay = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"].map((weekday) => ({
    weekday,
    start_local: "00:00",
    end_local: "23:30",
  }));
  await api.call("POST", `${V1}/experts/${expert.id}/schedule`, { user: expert, body: { timezone: "UTC", slots: everyDay } });
  const body = {
    title: "Two questions",
    price: 60,
    length_minutes: 30,
    prep_question_1: "What is your goal?",
    prep_question_2: "Where are you now?",
    status: "published",
  };
  sessionId = (await api.call("POST", `${V1}/sessions`, { user: expert, body })).json().session.id;
});
afterAll(() => api.close());

/** A booking by a creator of its own (one creator may hold only three unpaid times). */
async function book(slot: number): Promise<{ id: string; creator: TestUser }> {
  const creator = await api.user("creator", { firstName: "Cleo" });
  const times = (await api.call("GET", `${V1}/sessions/${sessionId}/availability`)).json().times as string[];
  const r = await api.call("POST", `${V1}/bookings`, { user: creator, body: { session_id: sessionId, scheduled_time: times[slot] } });
  expect(r.statusCode, r.body).toBe(201);
  return { id: r.json().booking.id as string, creator };
}

const prep = (booking: { id: string; creator: TestUser }, body: Record<string, string>) =>
  api.call("PATCH", `${V1}/bookings/${booking.id}/prep`, { user: booking.creator, body });

describe("PATCH /bookings/:id/prep takes one answer per question the session asked", () => {
  it("two answers to two questions are kept beside them, with no third", async () => {
    const booking = await book(2);
    const r = await prep(booking, { prep_response_1: "Grow", prep_response_2: "Stuck at 10k" });
    expect(r.statusCode, r.body).toBe(200);
    expect(r.json()).toMatchObject({
      prep_question_1: "What is your goal?",
      prep_question_2: "Where are you now?",
      prep_question_3: null,
      prep_response_1: "Grow",
      prep_response_2: "Stuck at 10k",
      prep_response_3: null,
    });
    const admin = await api.user("admin");
    const row = (await api.call("GET", `${V1}/admin/bookings/${booking.id}`, { user: admin })).json();
    expect(row).toMatchObject({ prep_questions: ["What is your goal?", "Where are you now?"], prep_answers: ["Grow", "Stuck at 10k"] });
  });

  it.each([
    ["a third answer to a question nobody asked", { prep_response_1: "Grow", prep_response_2: "Stuck", prep_response_3: "Extra" }],
    ["one answer to two questions", { prep_response_1: "Grow" }],
    ["an empty answer", { prep_response_1: "Grow", prep_response_2: "  " }],
  ])("refuses %s with the catalogue's message", async (_name, body) => {
    const r = await prep(await book(4), body);
    expect(r.statusCode).toBe(400);
    expect(r.json()).toMatchObject({ code: "prep_answers_required", message: "Please answer each preparation question." });
  });
});
