import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  AdminBookingEventReply,
  AdminTermsAcceptanceReply,
  AdminUserReply,
  AuthSessionReply,
  EarlyAccessRequestRecord,
  LoggedEventRecord,
  MeReply,
  ProjectionRecord,
  SignupReply,
  TwoFactorChallengeReply,
  UnsubscribeReply,
} from "@booking/contracts";
import { signLink } from "../src/auth/signed-links.ts";
import { mailedToken, refreshHeaders, sessionOf } from "./auth-client.ts";
import { startTestApi, TEST_JWT_SECRET, type TestApi, type TestUser } from "./harness.ts";
import { exactly, succeeded } from "./reply-checks.ts";

// Account and audit replies go out through contracts' strict schemas: each route answers with
// exactly its schema's fields (a field the code adds without the schema is a 500 here), and the
// OpenAPI document describes them.

let api: TestApi;
let admin: TestUser;
let creator: TestUser;
const V1 = "/api/v1";

beforeAll(async () => {
  api = await startTestApi();
  admin = await api.user("admin");
  creator = await api.user("creator", { firstName: "Cleo" });
  // A booking's history without the booking flow: one event on an expert's calendar.
  await api.ctx.store.append(
    "calendar-e-replies",
    [
      {
        type: "BookingRequested",
        data: {
          bookingId: "b-replies",
          expertId: "e-replies",
          expertUserId: "u-expert",
          creatorId: creator.id,
          sessionId: "s1",
          sessionTitle: "Launch plan",
          lengthMinutes: 30,
          priceCents: 9_000,
          prepQuestions: [],
          scheduledTime: "2030-02-01T10:00:00.000Z",
          heldUntil: "2030-01-06T09:15:00.000Z",
        },
        metadata: { at: api.ctx.clock(), actor: { userId: creator.id, role: "creator" } },
      },
    ],
    "no_stream",
  );
  expect(
    (
      await api.call("POST", `${V1}/early-access`, {
        body: { name: "Noor", email: "noor@example.com", role: "creator", need: "A launch plan" },
      })
    ).statusCode,
  ).toBe(204);
});
afterAll(() => api.close());

const ok = (method: "GET" | "POST" | "PATCH" | "PUT", url: string, user?: TestUser, body?: unknown) =>
  succeeded(api, method, url, user, body);

async function eventually<T>(read: () => Promise<T[]>): Promise<T[]> {
  for (let i = 0; i < 100; i++) {
    const rows = await read();
    if (rows.length > 0) return rows;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error("no rows in time");
}

describe("account replies are contracts' schemas", () => {
  it("sign-up answers SignupReply; verify, sign-in and refresh the auth session; /auth/me and preferences MeReply; unsubscribe UnsubscribeReply", async () => {
    const body = { email: "replies@example.com", password: "launch-2030", role: "creator", first_name: "Rae" };
    const signedUp = await ok("POST", "/auth/signup", undefined, body);
    exactly(SignupReply, signedUp);
    exactly(SignupReply.shape.user, signedUp.user);
    const verified = await ok("POST", "/auth/verify", undefined, { token: await mailedToken(api.ctx.db, "verify_email", body.email) });
    exactly(AuthSessionReply, verified);
    exactly(AuthSessionReply.shape.user, verified.user);
    const login = await api.call("POST", `${V1}/auth/login`, { body: { email: body.email, password: body.password } });
    const signedIn = login.json<AuthSessionReply>();
    exactly(AuthSessionReply, signedIn);
    const refreshed = await api.call("POST", `${V1}/auth/refresh`, { headers: refreshHeaders(sessionOf(login).refresh_token) });
    expect(refreshed.statusCode, refreshed.body).toBe(200);
    exactly(AuthSessionReply, refreshed.json());
    const me = { id: signedIn.user.id, role: "creator" as const, email: body.email, token: signedIn.access_token };
    exactly(MeReply, await ok("GET", "/auth/me", me));
    const renamed = await ok("PATCH", "/auth/me", me, { first_name: "Rae", last_name: "Lind" });
    exactly(MeReply, renamed);
    expect(renamed).toMatchObject({ first_name: "Rae", last_name: "Lind", terms_accepted: false, expert_id: null });
    exactly(MeReply, await ok("PUT", "/auth/me/preferences", me, { timezone: "Europe/Oslo", reminder_mails: true }));
    const token = signLink(TEST_JWT_SECRET, "unsubscribe", me.id, api.ctx.clock());
    exactly(UnsubscribeReply, await ok("POST", "/mail/unsubscribe", undefined, { token }));
  });

  it("the console's users, terms acceptances and early-access requests", async () => {
    const users = await ok("GET", "/admin/users", admin);
    for (const user of users) exactly(AdminUserReply, user);
    const one = await ok("GET", `/admin/users/${creator.id}`, admin);
    exactly(AdminUserReply, one);
    expect(one).toMatchObject({ id: creator.id, first_name: "Cleo", accepted_current_terms: true, bookings_as_creator: 1 });

    const acceptances = await ok("GET", "/admin/terms-acceptances", admin);
    expect(acceptances.length).toBeGreaterThan(0);
    for (const acceptance of acceptances) exactly(AdminTermsAcceptanceReply, acceptance);
    exactly(AdminTermsAcceptanceReply, await ok("GET", `/admin/terms-acceptances/${acceptances[0].id}`, admin));

    const [request] = await ok("GET", "/admin/early-access", admin);
    exactly(EarlyAccessRequestRecord, request);
    expect(request).toMatchObject({ name: "Noor", email: "noor@example.com", role: "creator", need: "A launch plan" });
  });
});

describe("audit replies are contracts' schemas", () => {
  it("the event log, booking events and the read models' status", async () => {
    const events = await ok("GET", "/admin/events", admin);
    expect(events.length).toBeGreaterThan(0);
    for (const event of events) exactly(LoggedEventRecord, event);
    exactly(LoggedEventRecord, await ok("GET", `/admin/events/${events[0].id}`, admin));

    const bookingEvents = await eventually<{ id: string }>(() => ok("GET", "/admin/booking-events", admin));
    for (const event of bookingEvents) exactly(AdminBookingEventReply, event);
    const requested = await ok("GET", `/admin/booking-events/${bookingEvents[0]!.id}`, admin);
    exactly(AdminBookingEventReply, requested);
    expect(requested).toMatchObject({
      booking_id: "b-replies",
      expert_id: "e-replies",
      type: "BookingRequested",
      actor: { userId: creator.id, role: "creator" },
    });

    const projections = await ok("GET", "/admin/projections", admin);
    expect(projections.map((p: { id: string }) => p.id)).toContain("users");
    for (const projection of projections) exactly(ProjectionRecord, projection);
    exactly(ProjectionRecord, await ok("GET", "/admin/projections/earnings", admin));
  });

  it("the OpenAPI document describes these replies", async () => {
    const doc = (await api.call("GET", `${V1}/docs`)).json();
    const reply = (path: string, method: string, status: string) =>
      doc.paths[path][method].responses[status].content["application/json"].schema;
    expect(Object.keys(reply("/auth/me", "get", "200").properties).sort()).toEqual(Object.keys(MeReply.shape).sort());
    // A session, or (two-factor sign-in on, issue 33.4) the challenge its code answers.
    expect(reply("/auth/login", "post", "200").anyOf.map((s: { properties: object }) => Object.keys(s.properties).sort())).toEqual([
      Object.keys(AuthSessionReply.shape).sort(),
      Object.keys(TwoFactorChallengeReply.shape).sort(),
    ]);
    expect(Object.keys(reply("/auth/login/two-factor", "post", "200").properties).sort()).toEqual(
      Object.keys(AuthSessionReply.shape).sort(),
    );
    expect(Object.keys(reply("/auth/signup", "post", "201").properties).sort()).toEqual(Object.keys(SignupReply.shape).sort());
    expect(Object.keys(reply("/mail/unsubscribe", "post", "200").properties).sort()).toEqual(Object.keys(UnsubscribeReply.shape).sort());
    expect(Object.keys(reply("/admin/users/{id}", "get", "200").properties).sort()).toEqual(Object.keys(AdminUserReply.shape).sort());
    expect(Object.keys(reply("/admin/events", "get", "200").items.properties).sort()).toEqual(Object.keys(LoggedEventRecord.shape).sort());
    expect(Object.keys(reply("/admin/projections/{id}", "get", "200").properties).sort()).toEqual(
      Object.keys(ProjectionRecord.shape).sort(),
    );
  });
});
