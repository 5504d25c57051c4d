import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { z } from "zod";
import {
  AdminExpertReply,
  AdminSessionReply,
  AvailabilityReply,
  ExpertDetailReply,
  ExpertListItem,
  ExpertProfileReply,
  OwnExpertProfileReply,
  ScheduleReply,
  ScheduleSetReply,
  SessionDeletedReply,
  SessionReply,
  SessionWrittenReply,
} from "@booking/contracts";
import type * as Projections from "@booking/projections";
import { startTestApi, type TestApi, type TestUser } from "./harness.ts";
import { exactly, succeeded } from "./reply-checks.ts";

// Expert, session, schedule and availability replies go out through contracts' strict schemas:
// each route answers with exactly its schema's fields, a field the code adds without the schema
// is a 500 (shown by making the read model's reply builders add one), and the OpenAPI document
// describes every reply.

/** While on, the session and listing replies carry a field no schema names. */
const stray = vi.hoisted(() => ({ on: false }));
vi.mock("@booking/projections", async (importOriginal) => {
  const original = await importOriginal<typeof Projections>();
  const withStray =
    <A extends unknown[], R extends object>(build: (...args: A) => R) =>
    (...args: A) =>
      stray.on ? { ...build(...args), stray: true } : build(...args);
  return { ...original, sessionReply: withStray(original.sessionReply), expertListItem: withStray(original.expertListItem) };
});

let api: TestApi;
let expert: TestUser;
let admin: TestUser;
let sessionId: string;
let slug: string;
const V1 = "/api/v1";

const ok = (method: Parameters<typeof succeeded>[1], url: string, user?: TestUser, body?: unknown) =>
  succeeded(api, method, url, user, body);

beforeAll(async () => {
  api = await startTestApi();
  expert = await api.user("expert", { firstName: "Ines" });
  admin = await api.user("admin");
});
afterAll(() => api.close());

describe("catalogue replies are contracts' schemas", () => {
  it("the expert's own profile: the empty default, then the saved profile", async () => {
    const empty = await ok("GET", "/experts/me", expert);
    expect(empty).toEqual({
      id: null,
      slug: null,
      first_name: "",
      last_name: "",
      title: "",
      bio: "",
      tags: [],
      profile_image: null,
      published: false,
      verified: false,
    });
    OwnExpertProfileReply.parse(empty);
    const saved = await ok("PATCH", "/experts/me", expert, {
      first_name: "Ines",
      last_name: "Okafor",
      title: "Pricing coach",
      tags: ["pricing"],
      published: true,
    });
    exactly(ExpertProfileReply, saved);
    exactly(ExpertProfileReply, await ok("GET", "/experts/me", expert));
    slug = saved.slug;
    await api.approve(expert);
  });

  it("schedules, sessions and availability", async () => {
    const everyDay = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"].map((weekday) => ({
      weekday,
      start_local: "00:00",
      end_local: "23:30",
    }));
    exactly(ScheduleSetReply, await ok("POST", `/experts/${expert.id}/schedule`, expert, { timezone: "UTC", slots: everyDay }));
    const schedule = await ok("GET", `/experts/${expert.id}/schedule`, expert);
    exactly(ScheduleReply, schedule);
    expect(schedule).toMatchObject({ timezone: "UTC", slots: everyDay, booked: [] });

    const created = await ok("POST", "/sessions", expert, {
      title: "Launch plan",
      price: 90,
      length_minutes: 30,
      prep_question_1: "Why?",
      status: "draft",
    });
    exactly(SessionWrittenReply, created);
    exactly(SessionReply, created.session);
    sessionId = created.session.id;
    const published = await ok("PUT", `/sessions/${sessionId}`, expert, { status: "published" });
    exactly(SessionReply, published.session);
    exactly(SessionReply, await ok("GET", `/sessions/${sessionId}`));
    for (const s of await ok("GET", `/experts/${expert.id}/sessions`)) exactly(SessionReply, s);
    const availability = await ok("GET", `/sessions/${sessionId}/availability`);
    exactly(AvailabilityReply, availability);
    expect(availability.times.length).toBeGreaterThan(0);

    const other = (await ok("POST", "/sessions", expert, { title: "Gone soon", price: 50, length_minutes: 30, prep_question_1: "Why?" }))
      .session.id;
    exactly(SessionDeletedReply, await ok("DELETE", `/sessions/${other}`, expert));
  });

  it("the listing, search and public profile", async () => {
    const listed = (await ok("GET", "/experts")).find((e: { id: string }) => e.id === expert.id);
    exactly(ExpertListItem, listed);
    expect(listed).toMatchObject({ name: "Ines Okafor", startingprice: 90 });
    for (const item of await ok("GET", "/experts/search?search=okafor")) exactly(ExpertListItem, item);
    const detail = await ok("GET", `/experts/${slug}`);
    exactly(ExpertDetailReply, detail);
    expect(detail.sessions.map((s: { id: string }) => s.id)).toEqual([sessionId]);
  });

  it("the console's expert and session records are the read models' rows, keyed by id", async () => {
    for (const row of await ok("GET", "/admin/experts", admin)) exactly(AdminExpertReply, row);
    exactly(AdminExpertReply, await ok("GET", `/admin/experts/${expert.id}`, admin));
    const vetted = await ok("PUT", `/admin/experts/${expert.id}`, admin, { verified: false, reason: "Vetted again" });
    exactly(AdminExpertReply, vetted);
    expect(vetted).toMatchObject({ verified: false, vetted_by: admin.id, vetting_status: "draft" });
    expect(await ok("PUT", `/admin/experts/${expert.id}`, admin, { verified: true, reason: "Vetted" })).toMatchObject({ verified: true });
    for (const row of await ok("GET", "/admin/sessions", admin)) exactly(AdminSessionReply, row);
    exactly(AdminSessionReply, await ok("GET", `/admin/sessions/${sessionId}`, admin));
  });

  it("a reply carrying a field its schema lacks fails with a 500, the cached listing too", async () => {
    stray.on = true;
    try {
      for (const url of [`/sessions/${sessionId}`, `/experts/${expert.id}/sessions`, `/experts/${slug}`, "/experts/search?search=ines"]) {
        const r = await api.call("GET", `${V1}${url}`);
        expect(r.statusCode, `${url}: ${r.body}`).toBe(500);
        expect(r.body).not.toContain("stray");
      }
    } finally {
      stray.on = false;
    }
    expect((await api.call("GET", `${V1}/experts/search?search=ines`)).statusCode).toBe(200);
  });
});

describe("the OpenAPI document describes the catalogue's replies", () => {
  type Schema = { type?: string; properties?: Record<string, Schema>; items?: Schema };
  let paths: Record<string, Record<string, { responses: Record<string, { content?: { "application/json"?: { schema: Schema } } }> }>>;
  const reply = (method: string, path: string, status = "200") =>
    paths[path]![method]!.responses[status]!.content!["application/json"]!.schema;
  const fields = (schema: Schema) => Object.keys(schema.properties ?? {}).sort();
  const keysOf = (schema: z.ZodObject) => Object.keys(schema.shape).sort();

  beforeAll(async () => {
    paths = (await api.call("GET", `${V1}/docs`)).json().paths;
  });

  it("GET /experts and the search: an array of listing cards", () => {
    for (const path of ["/experts", "/experts/search"]) {
      expect(reply("get", path).type).toBe("array");
      expect(fields(reply("get", path).items!)).toEqual(keysOf(ExpertListItem));
    }
  });

  it("GET /experts/{slug}, the expert's own profile and its save", () => {
    expect(fields(reply("get", "/experts/{slug}"))).toEqual(keysOf(ExpertDetailReply));
    expect(fields(reply("get", "/experts/{slug}").properties!.sessions!.items!)).toEqual(keysOf(SessionReply));
    expect(fields(reply("get", "/experts/me"))).toEqual(keysOf(OwnExpertProfileReply));
    expect(fields(reply("patch", "/experts/me"))).toEqual(keysOf(ExpertProfileReply));
  });

  it("sessions, schedules and availability", () => {
    expect(fields(reply("get", "/sessions/{id}"))).toEqual(keysOf(SessionReply));
    expect(fields(reply("post", "/sessions", "201").properties!.session!)).toEqual(keysOf(SessionReply));
    expect(fields(reply("put", "/sessions/{id}").properties!.session!)).toEqual(keysOf(SessionReply));
    expect(fields(reply("get", "/experts/{expertId}/sessions").items!)).toEqual(keysOf(SessionReply));
    expect(fields(reply("get", "/experts/{expertId}/schedule"))).toEqual(keysOf(ScheduleReply));
    expect(fields(reply("post", "/experts/{expertId}/schedule"))).toEqual(keysOf(ScheduleSetReply));
    expect(fields(reply("get", "/sessions/{id}/availability"))).toEqual(keysOf(AvailabilityReply));
  });
});
