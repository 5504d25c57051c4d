import { randomUUID } from "node:crypto";
import simpleRestProvider from "ra-data-simple-rest";
import { fetchUtils, type DataProvider } from "ra-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { formatPosition, readDomainEvent, type Actor, type CalendarCommand, type Result } from "@booking/contracts";
import { calendarStream, expertStream, sessionStream, termsStream } from "@booking/engine";
import type { CommandResult } from "@booking/event-store";
import { readModelDigest } from "@booking/projections";
import { MAX_LIST_ROWS, parseListQuery } from "../src/admin/list-query.ts";
import { startTestApi, type TestApi, type TestUser } from "./harness.ts";

// The admin area: ra-data-simple-rest lists over the read models, a booking's timeline from the
// event store, expert vetting through the decider, the terms audit export, the raw event log and
// read-model rebuilds. Data is written through the engine, as the product writes it.

let api: TestApi;
let admin: TestUser;
let creator: TestUser;
let expertUser: TestUser;
const expertId = `ex-${randomUUID().slice(0, 8)}`;
const sessionId = `se-${randomUUID().slice(0, 8)}`;
const title = `Brand deal review ${randomUUID().slice(0, 6)}`;
const bookingIds = { confirmed: `bk-${randomUUID()}`, pending: `bk-${randomUUID()}`, cancelled: `bk-${randomUUID()}` };

/** A time `days` ahead of today at 10:00 UTC: always inside the 28-day window and the all-day schedule. */
const daysAhead = (days: number) => {
  const d = new Date();
  return new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate() + days, 10, 0)).toISOString();
};
const scheduled = { confirmed: daysAhead(2), pending: daysAhead(3), cancelled: daysAhead(4) };

async function must(p: Promise<Result<CommandResult>>): Promise<CommandResult> {
  const r = await p;
  if (!r.ok) throw new Error(`refused: ${JSON.stringify(r.refusal)}`);
  await api.ctx.projected(r.value);
  return r.value;
}

/** Wait for the read models to show everything in the store (users appended directly by the harness). */
const settled = async () => api.ctx.projected({ events: [], version: 0, position: await api.ctx.store.headPosition(), replayed: false });

const actorOf = (u: TestUser): Actor => ({ userId: u.id, role: u.role });
const list = (resource: string, query: { sort?: unknown; range?: unknown; filter?: unknown } = {}, user: TestUser | undefined = admin) => {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) params.set(key, typeof value === "string" ? value : JSON.stringify(value));
  return api.call("GET", `/api/v1/admin/${resource}?${params}`, { user });
};

beforeAll(async () => {
  api = await startTestApi();
  admin = await api.user("admin");
  creator = await api.user("creator");
  expertUser = await api.user("expert");
  const expert = actorOf(expertUser);
  const payments: Actor = { userId: "payments", role: "system" };

  const profile = {
    firstName: "Ada",
    lastName: "Vetting",
    title: "Brand strategist",
    bio: "Ten years of brand deals.",
    tags: ["brand"],
    profileImage: null,
  };
  await must(
    api.ctx.experts.handle(
      expertStream(expertId),
      { type: "SaveExpertProfile", expertId, actor: expert, userId: expertUser.id, profile, published: true },
      { actor: expert },
    ),
  );
  const definition = {
    title,
    description: "We review your deck",
    priceCents: 15_000,
    lengthMinutes: 60 as const,
    prepQuestions: ["Goal?", "Audience?", "Blockers?"],
    sessionDetails: "",
    idealFor: ["podcasters"],
  };
  await must(
    api.ctx.sessions.handle(
      sessionStream(sessionId),
      { type: "CreateSession", sessionId, expertId, actor: expert, definition, status: "published" },
      { actor: expert },
    ),
  );

  const calendar = (command: CalendarCommand, actor: Actor) => must(api.ctx.calendar.handle(calendarStream(expertId), command, { actor }));
  const allDay = (["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"] as const).map((weekday) => ({
    weekday,
    start_local: "00:00",
    end_local: "23:30",
  }));
  await calendar({ type: "SetSchedule", expertId, actor: expert, schedule: { timezone: "UTC", slots: allDay } }, expert);
  const session = {
    sessionId,
    expertId,
    title,
    lengthMinutes: 60 as const,
    priceCents: 15_000,
    published: true,
    prepQuestions: definition.prepQuestions,
  };
  const book = (bookingId: string, scheduledTime: string) =>
    calendar(
      {
        type: "RequestBooking",
        expertId,
        bookingId,
        actor: actorOf(creator),
        scheduledTime,
        session,
        expertUserId: expertUser.id,
        expertVetting: "approved",
        creatorAcceptedTerms: true,
        creatorBookings: [],
        holdMinutes: 15,
      },
      actorOf(creator),
    );
  const pay = (bookingId: string) =>
    calendar(
      { type: "RecordPayment", expertId, bookingId, actor: payments, paymentId: `pi_${bookingId}`, amountCents: 15_000, provider: "test" },
      payments,
    );

  await book(bookingIds.confirmed, scheduled.confirmed);
  await pay(bookingIds.confirmed);
  await calendar({ type: "ConfirmBooking", expertId, bookingId: bookingIds.confirmed, actor: expert }, expert);
  await book(bookingIds.pending, scheduled.pending);
  await book(bookingIds.cancelled, scheduled.cancelled);
  await pay(bookingIds.cancelled);
  await calendar(
    { type: "CancelBooking", expertId, bookingId: bookingIds.cancelled, actor: actorOf(creator), reason: "Double-booked myself" },
    actorOf(creator),
  );
});
afterAll(async () => api?.close());

describe("admin access", () => {
  it("refuses creators and experts (403) and anonymous callers (401), before looking at the input", async () => {
    for (const path of [
      "/bookings",
      "/experts",
      "/events",
      "/projections",
      `/bookings/${bookingIds.pending}`,
      "/terms-acceptances/export.csv",
    ]) {
      expect((await api.call("GET", `/api/v1/admin${path}`, { user: creator })).json()).toEqual({
        code: "forbidden",
        message: "You do not have access to this.",
      });
      expect((await api.call("GET", `/api/v1/admin${path}`, { user: expertUser })).statusCode).toBe(403);
      const anonymous = await api.call("GET", `/api/v1/admin${path}`);
      expect(anonymous.statusCode).toBe(401);
      expect(anonymous.json().code).toBe("no_access_token");
    }
    expect(
      (await api.call("PUT", `/api/v1/admin/experts/${expertId}`, { user: expertUser, body: { verified: true, reason: "Vetted" } }))
        .statusCode,
    ).toBe(403);
    expect((await api.call("POST", "/api/v1/admin/projections/bookings/rebuild", { user: creator })).statusCode).toBe(403);
    expect((await api.call("GET", "/api/v1/admin/bookings?sort=nope")).statusCode).toBe(401);
  });
});

describe("the list contract", () => {
  it("answers a JSON array with Content-Range, exposed to browsers", async () => {
    const r = await list("bookings", { sort: ["scheduled_time", "ASC"], range: [0, 24], filter: { expert_id: expertId } });
    expect(r.statusCode).toBe(200);
    expect(r.headers["content-range"]).toBe("bookings 0-2/3");
    expect(r.headers["access-control-expose-headers"]).toBe("Content-Range");
    const rows = r.json<{ id: string; scheduled_time: string }[]>();
    expect(rows.map((b) => b.id)).toEqual([bookingIds.confirmed, bookingIds.pending, bookingIds.cancelled]);
    expect(rows.map((b) => b.scheduled_time)).toEqual([scheduled.confirmed, scheduled.pending, scheduled.cancelled]);
  });

  it("pages by range and reports the slice it sent; an empty page says so", async () => {
    const r = await list("bookings", { sort: ["scheduled_time", "DESC"], range: [1, 1], filter: { expert_id: expertId } });
    expect(r.headers["content-range"]).toBe("bookings 1-1/3");
    expect(r.json().map((b: { id: string }) => b.id)).toEqual([bookingIds.pending]);
    const past = await list("bookings", { range: [10, 19], filter: { expert_id: expertId } });
    expect(past.json()).toEqual([]);
    expect(past.headers["content-range"]).toBe("bookings */3");
  });

  it("caps a range at the row limit", () => {
    const parsed = parseListQuery(
      { resource: "x", sortable: { id: "x.id" }, defaultSort: ["id", "ASC"], uniqueKey: "x.id", filter: z.object({}).strict() },
      { range: "[0,99999]" },
    );
    expect(parsed.limit).toBe(MAX_LIST_ROWS);
    expect(parsed.offset).toBe(0);
  });

  it("refuses a sort field outside the resource's list, malformed JSON, unknown filters and parameters with 400", async () => {
    const bad = [
      { sort: ["password_hash", "ASC"] },
      { sort: ["scheduled_time", "UP"] },
      { sort: "[scheduled_time" },
      { sort: '["scheduled_time; DROP TABLE bookings","ASC"]' },
      { range: "[0," },
      { range: [5, 1] },
      { range: [-1, 3] },
      { filter: "{status:" },
      { filter: { status: "on_fire" } },
      { filter: { owner: "me" } },
      { filter: { scheduled_from: "next tuesday" } },
      // Dates JavaScript reads but Postgres cannot hold, or that do not exist.
      { filter: { scheduled_from: "0000-01-01" } },
      { filter: { scheduled_to: "0000-12-31T23:00:00Z" } },
      { filter: { scheduled_from: "2026-02-30" } },
      { filter: { scheduled_to: "2026-04-31T10:00:00Z" } },
      { filter: { scheduled_from: "0001-01-01T00:30:00+01:00" } },
      { filter: [] },
    ];
    for (const query of bad) {
      const r = await list("bookings", query);
      expect(r.statusCode, JSON.stringify(query)).toBe(400);
      expect(r.json()).toEqual({ code: "invalid_request", message: "The request is not valid." });
    }
    expect((await api.call("GET", "/api/v1/admin/bookings?page=2", { user: admin })).statusCode).toBe(400);
    expect((await list("users", { sort: ["bookings_as_creator; --", "ASC"] })).statusCode).toBe(400);
    expect((await list("events", { filter: { stream_id: 3 } })).statusCode).toBe(400);
    for (const [resource, filter] of [
      ["events", { from: "0000-01-01" }],
      ["booking-events", { occurred_to: "0000-06-01" }],
      ["terms-acceptances", { accepted_from: "0000-01-01" }],
    ] as const)
      expect((await list(resource, { filter })).statusCode, `${resource} ${JSON.stringify(filter)}`).toBe(400);
  });
});

describe("bookings", () => {
  const ids = async (filter: Record<string, unknown>) =>
    (await list("bookings", { sort: ["scheduled_time", "ASC"], filter: { expert_id: expertId, ...filter } }))
      .json()
      .map((b: { id: string }) => b.id);

  it("filters by status, payment, creator, time window and search text", async () => {
    expect(await ids({ status: "pending" })).toEqual([bookingIds.pending]);
    expect(await ids({ status: ["confirmed", "cancelled"] })).toEqual([bookingIds.confirmed, bookingIds.cancelled]);
    expect(await ids({ paid: true })).toEqual([bookingIds.confirmed, bookingIds.cancelled]);
    expect(await ids({ paid: false })).toEqual([bookingIds.pending]);
    expect(await ids({ payment_state: "refund_due" })).toEqual([bookingIds.cancelled]);
    expect(await ids({ creator_id: creator.id })).toHaveLength(3);
    expect(await ids({ creator_id: admin.id })).toEqual([]);
    expect(await ids({ scheduled_from: scheduled.pending, scheduled_to: scheduled.pending.slice(0, 10) })).toEqual([bookingIds.pending]);
    expect(await ids({ q: title.slice(-10).toUpperCase() })).toHaveLength(3);
    expect(await ids({ q: bookingIds.cancelled })).toEqual([bookingIds.cancelled]);
    expect(await ids({ q: "100%_\\" })).toEqual([]);
    expect(await ids({ id: [bookingIds.pending, bookingIds.confirmed] })).toEqual([bookingIds.confirmed, bookingIds.pending]);
  });

  it("shows one booking with its timeline: its events in the event store, in stream order", async () => {
    const r = await api.call("GET", `/api/v1/admin/bookings/${bookingIds.cancelled}`, { user: admin });
    expect(r.statusCode).toBe(200);
    const booking = r.json();
    expect(booking).toMatchObject({
      id: bookingIds.cancelled,
      status: "cancelled",
      payment_state: "refund_due",
      paid_cents: 15_000,
      cancelled_by: "creator",
      session_title: title,
    });

    const { events } = await api.ctx.store.readStream(calendarStream(expertId));
    const expected = events
      .filter((e) => (e.data as { bookingId?: string }).bookingId === bookingIds.cancelled)
      .map((e) => ({
        event_id: e.eventId,
        type: e.type,
        time: e.metadata.at,
        actor: e.metadata.actor ?? null,
        version: e.version,
        position: formatPosition(e.position),
        data: readDomainEvent(e.type, e.schemaVersion, e.data).data,
      }));
    expect(expected.map((e) => e.type)).toEqual(["BookingRequested", "PaymentSucceeded", "Cancelled"]);
    expect(booking.timeline).toEqual(expected);
    expect(booking.timeline.at(-1).actor).toEqual({ userId: creator.id, role: "creator" });

    // The booking-events read model holds the same history.
    const projected = await list("booking-events", { sort: ["stream_version", "ASC"], filter: { booking_id: bookingIds.cancelled } });
    expect(projected.json().map((e: { id: string }) => e.id)).toEqual(expected.map((e) => e.event_id));
    expect(
      (await list("booking-events", { filter: { booking_id: bookingIds.cancelled, type: "Cancelled" } })).headers["content-range"],
    ).toBe("booking-events 0-0/1");
  });

  it("answers an unknown booking with 404", async () => {
    const r = await api.call("GET", "/api/v1/admin/bookings/no-such-booking", { user: admin });
    expect(r.statusCode).toBe(404);
    expect(r.json().code).toBe("not_found");
  });
});

describe("users, experts, sessions", () => {
  it("lists users with their terms status and booking counts", async () => {
    const r = await list("users", { filter: { q: creator.email.toUpperCase() } });
    expect(r.json()).toEqual([
      expect.objectContaining({
        id: creator.id,
        email: creator.email,
        role: "creator",
        accepted_current_terms: true,
        current_terms_version: "2025-01",
        bookings_as_creator: 3,
        bookings_as_expert: 0,
        expert_id: null,
      }),
    ]);
    const expert = (await api.call("GET", `/api/v1/admin/users/${expertUser.id}`, { user: admin })).json();
    expect(expert).toMatchObject({ id: expertUser.id, role: "expert", bookings_as_expert: 3, bookings_as_creator: 0, expert_id: expertId });
    const late = await api.user("creator", { acceptTerms: false });
    await settled();
    const pending = await list("users", { filter: { id: [late.id, creator.id], accepted_current_terms: false } });
    expect(pending.json().map((u: { id: string }) => u.id)).toEqual([late.id]);
    const admins = (await list("users", { filter: { role: "admin" } })).json();
    expect(admins.every((u: { role: string }) => u.role === "admin")).toBe(true);
    expect(admins.map((u: { id: string }) => u.id)).toContain(admin.id);
  });

  it("lists experts by vetting and publish state", async () => {
    const r = await list("experts", { filter: { q: "ada vett", published: true } });
    expect(r.json()).toEqual([
      expect.objectContaining({ id: expertId, user_id: expertUser.id, published: true, verified: false, first_name: "Ada" }),
    ]);
    expect((await list("experts", { filter: { id: expertId, verified: true } })).json()).toEqual([]);
  });

  it("lists sessions, with or without deleted ones", async () => {
    const draftId = `se-${randomUUID().slice(0, 8)}`;
    const expert = actorOf(expertUser);
    const definition = {
      title: "Draft",
      description: "",
      priceCents: 0,
      lengthMinutes: 30 as const,
      prepQuestions: ["Why?"],
      sessionDetails: "",
      idealFor: [],
    };
    await must(
      api.ctx.sessions.handle(
        sessionStream(draftId),
        { type: "CreateSession", sessionId: draftId, expertId, actor: expert, definition, status: "draft" },
        { actor: expert },
      ),
    );
    await must(
      api.ctx.sessions.handle(
        sessionStream(draftId),
        { type: "DeleteSession", sessionId: draftId, expertId, actor: expert },
        { actor: expert },
      ),
    );
    const all = await list("sessions", { sort: ["created_at", "ASC"], filter: { expert_id: expertId } });
    expect(all.json().map((s: { id: string }) => s.id)).toEqual([sessionId, draftId]);
    expect((await list("sessions", { filter: { expert_id: expertId, deleted: false } })).json()).toEqual([
      expect.objectContaining({ id: sessionId, status: "published", price_cents: 15_000, deleted: false }),
    ]);
    expect(
      (await list("sessions", { filter: { expert_id: expertId, deleted: true, status: "draft" } })).json().map((s: { id: string }) => s.id),
    ).toEqual([draftId]);
    expect((await api.call("GET", `/api/v1/admin/sessions/${draftId}`, { user: admin })).json()).toMatchObject({
      id: draftId,
      deleted: true,
    });
  });

  it("refuses vetting an unknown expert, and any change but the vetting decision", async () => {
    const unknown = await api.call("PUT", "/api/v1/admin/experts/nobody", { user: admin, body: { verified: true, reason: "Vetted" } });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().code).toBe("profile_not_found");
    expect(
      (
        await api.call("PUT", `/api/v1/admin/experts/${expertId}`, {
          user: admin,
          body: { verified: true, reason: "Vetted", title: "Hacker" },
        })
      ).statusCode,
    ).toBe(400);
    expect(
      (await api.call("PUT", `/api/v1/admin/experts/${expertId}`, { user: admin, body: { verified: "yes", reason: "Vetted" } })).statusCode,
    ).toBe(400);
  });
});

describe("through ra-data-simple-rest, the admin console's own client", () => {
  let provider: DataProvider;
  let viewer: DataProvider;

  beforeAll(async () => {
    const address = await api.app.listen({ port: 0, host: "127.0.0.1" });
    const client =
      (token: string) =>
      (url: string, options: fetchUtils.Options = {}) => {
        const headers = new Headers(options.headers);
        headers.set("Authorization", `Bearer ${token}`);
        return fetchUtils.fetchJson(url, { ...options, headers });
      };
    provider = simpleRestProvider(`${address}/api/v1/admin`, client(admin.token));
    viewer = simpleRestProvider(`${address}/api/v1/admin`, client(creator.token));
  });

  it("lists with filter, sort and pagination, and reads one", async () => {
    const page = await provider.getList("bookings", {
      pagination: { page: 1, perPage: 2 },
      sort: { field: "scheduled_time", order: "ASC" },
      filter: { expert_id: expertId },
    });
    expect(page.total).toBe(3);
    expect(page.data.map((b) => b.id)).toEqual([bookingIds.confirmed, bookingIds.pending]);
    const next = await provider.getList("bookings", {
      pagination: { page: 2, perPage: 2 },
      sort: { field: "scheduled_time", order: "ASC" },
      filter: { expert_id: expertId },
    });
    expect(next.data.map((b) => b.id)).toEqual([bookingIds.cancelled]);

    const one = await provider.getOne("bookings", { id: bookingIds.confirmed });
    expect(one.data).toMatchObject({ id: bookingIds.confirmed, status: "confirmed", payment_state: "paid" });
    expect(one.data.timeline.map((e: { type: string }) => e.type)).toEqual(["BookingRequested", "PaymentSucceeded", "Confirmed"]);
    // When it was confirmed, to the console and to the creator: the Confirmed event's time.
    expect(one.data.confirmed_at).toBe(one.data.timeline[2].time);
    expect((await api.call("GET", `/api/v1/bookings/${bookingIds.confirmed}`, { user: creator })).json().confirmed_at).toBe(
      one.data.timeline[2].time,
    );

    const many = await provider.getMany("users", { ids: [creator.id, expertUser.id] });
    expect(many.data.map((u) => u.id).sort()).toEqual([creator.id, expertUser.id].sort());
  });

  it("verifies and unverifies an expert as the admin, through the decider", async () => {
    const before = await provider.getOne("experts", { id: expertId });
    const updated = await provider.update("experts", {
      id: expertId,
      data: { verified: true, reason: "References checked" },
      previousData: before.data,
    });
    expect(updated.data).toMatchObject({ id: expertId, verified: true, vetted_by: admin.id });
    const { rows } = await api.ctx.db.query("SELECT verified, vetted_by FROM experts WHERE expert_id = $1", [expertId]);
    expect(rows).toEqual([{ verified: true, vetted_by: admin.id }]);
    const { events } = await api.ctx.store.readStream(expertStream(expertId));
    expect(events.at(-1)).toMatchObject({
      type: "ExpertVerified",
      data: { expertId, by: admin.id },
      metadata: { actor: { userId: admin.id, role: "admin" } },
    });

    const verified = await provider.getList("experts", {
      pagination: { page: 1, perPage: 10 },
      sort: { field: "last_name", order: "ASC" },
      filter: { verified: true, id: expertId },
    });
    expect(verified.total).toBe(1);

    const again = await provider.update("experts", {
      id: expertId,
      data: { verified: false, reason: "Complaints" },
      previousData: updated.data,
    });
    expect(again.data.verified).toBe(false);
    expect((await api.ctx.db.query("SELECT verified FROM experts WHERE expert_id = $1", [expertId])).rows).toEqual([{ verified: false }]);
  });

  it("surfaces refusals as HTTP errors", async () => {
    await expect(
      viewer.getList("bookings", { pagination: { page: 1, perPage: 5 }, sort: { field: "id", order: "ASC" }, filter: {} }),
    ).rejects.toMatchObject({ status: 403 });
    await expect(
      provider.getList("bookings", { pagination: { page: 1, perPage: 5 }, sort: { field: "creator_email", order: "ASC" }, filter: {} }),
    ).rejects.toMatchObject({ status: 400 });
    await expect(provider.getOne("bookings", { id: "missing" })).rejects.toMatchObject({ status: 404 });
  });
});

describe("terms acceptances", () => {
  let oldTermsUser: TestUser;

  beforeAll(async () => {
    // An acceptance of an earlier version, as it was recorded when that version was current.
    oldTermsUser = await api.user("creator", { acceptTerms: false });
    const actor = actorOf(oldTermsUser);
    await must(
      api.ctx.terms.handle(
        termsStream(oldTermsUser.id),
        { type: "AcceptTerms", userId: oldTermsUser.id, actor, versionId: "2024-06", currentVersionId: "2024-06" },
        { actor },
      ),
    );
  });

  it("lists acceptances with the user's email; id is user:version", async () => {
    const r = await list("terms-acceptances", { filter: { user_id: [creator.id, oldTermsUser.id] }, sort: ["version_id", "ASC"] });
    expect(r.json()).toEqual([
      {
        id: `${oldTermsUser.id}:2024-06`,
        user_id: oldTermsUser.id,
        email: oldTermsUser.email,
        version_id: "2024-06",
        accepted_at: expect.any(String),
        stream_version: expect.any(Number),
      },
      {
        id: `${creator.id}:2025-01`,
        user_id: creator.id,
        email: creator.email,
        version_id: "2025-01",
        accepted_at: expect.any(String),
        stream_version: expect.any(Number),
      },
    ]);
    expect((await api.call("GET", `/api/v1/admin/terms-acceptances/${creator.id}:2025-01`, { user: admin })).json()).toMatchObject({
      user_id: creator.id,
      version_id: "2025-01",
    });
    expect((await api.call("GET", `/api/v1/admin/terms-acceptances/${creator.id}:2019-01`, { user: admin })).statusCode).toBe(404);
  });

  it("exports CSV with the same filters", async () => {
    const r = await api.call(
      "GET",
      `/api/v1/admin/terms-acceptances/export.csv?filter=${encodeURIComponent(JSON.stringify({ version_id: "2024-06" }))}`,
      { user: admin },
    );
    expect(r.statusCode).toBe(200);
    expect(r.headers["content-type"]).toBe("text/csv; charset=utf-8");
    expect(r.headers["content-disposition"]).toBe('attachment; filename="terms-acceptances.csv"');
    const lines = r.body.trimEnd().split("\r\n");
    expect(lines[0]).toBe("user_id,email,version_id,accepted_at");
    const { rows } = await api.ctx.db.query<{ accepted_at: Date }>("SELECT accepted_at FROM terms_acceptances WHERE user_id = $1", [
      oldTermsUser.id,
    ]);
    expect(lines.slice(1)).toEqual([`${oldTermsUser.id},${oldTermsUser.email},2024-06,${rows[0]!.accepted_at.toISOString()}`]);

    const current = await api.call(
      "GET",
      `/api/v1/admin/terms-acceptances/export.csv?filter=${encodeURIComponent(JSON.stringify({ version_id: "2025-01" }))}`,
      { user: admin },
    );
    const users = current.body
      .trimEnd()
      .split("\r\n")
      .slice(1)
      .map((line) => line.split(",")[0]);
    expect(users).toContain(creator.id);
    expect(users).not.toContain(oldTermsUser.id);
    expect((await api.call("GET", "/api/v1/admin/terms-acceptances/export.csv?filter={", { user: admin })).statusCode).toBe(400);
  });
});

describe("the event log", () => {
  it("lists a stream's events in log order, filtered by stream prefix and type", async () => {
    const { events } = await api.ctx.store.readStream(calendarStream(expertId));
    const r = await list("events", { sort: ["position", "ASC"], range: [0, 99], filter: { stream_id: `calendar-${expertId}` } });
    expect(r.headers["content-range"]).toBe(`events 0-${events.length - 1}/${events.length}`);
    const records = r.json<
      {
        id: string;
        version: number;
        position: string;
        type: string;
        stream_id: string;
        data: unknown;
        metadata: unknown;
        recorded_at: string;
      }[]
    >();
    expect(records).toEqual(
      events.map((e) => ({
        id: e.eventId,
        stream_id: e.streamId,
        version: e.version,
        type: e.type,
        schema_version: e.schemaVersion,
        position: formatPosition(e.position),
        recorded_at: e.recordedAt,
        data: e.data,
        metadata: e.metadata,
      })),
    );

    const payments = await list("events", { filter: { stream_id: "calendar-", type: "PaymentSucceeded" }, sort: ["recorded_at", "DESC"] });
    expect(payments.json().every((e: { type: string }) => e.type === "PaymentSucceeded")).toBe(true);
    expect(payments.json().length).toBeGreaterThanOrEqual(2);
    expect((await list("events", { filter: { stream_id: "calendar_%" } })).json()).toEqual([]);

    const one = await api.call("GET", `/api/v1/admin/events/${events[0]!.eventId}`, { user: admin });
    expect(one.json()).toEqual(records[0]);
    expect((await api.call("GET", "/api/v1/admin/events/not-a-uuid", { user: admin })).statusCode).toBe(404);
    expect((await api.call("GET", `/api/v1/admin/events/${randomUUID()}`, { user: admin })).statusCode).toBe(404);
    expect((await list("events", { filter: { id: ["not-a-uuid", events[1]!.eventId] } })).json().map((e: { id: string }) => e.id)).toEqual([
      events[1]!.eventId,
    ]);
  });
});

describe("read models", () => {
  type ProjectionView = {
    id: string;
    status: string;
    position: string | null;
    lag: number | null;
    events_applied: number;
    rebuild: { state: string; done: number; total: number; eventsPerSecond: number; secondsLeft: number | null; error?: string } | null;
  };

  it("lists every read model with its checkpoint and lag", async () => {
    const r = await list("projections", { sort: ["name", "ASC"] });
    expect(r.headers["content-range"]).toBe("projections 0-11/12");
    const views = r.json<ProjectionView[]>();
    expect(views.map((p) => p.id)).toEqual([
      "booking_events",
      "bookings",
      "conversation_readers",
      "earnings",
      "experts",
      "ledger",
      "messages",
      "reviews",
      "schedules",
      "sessions",
      "terms_acceptances",
      "users",
    ]);
    for (const p of views) {
      expect(p.status).toBe("live");
      expect(p.position).toMatch(/^\d+:\d+$/);
      expect(p.lag).toBeGreaterThanOrEqual(0);
      expect(p.rebuild).toBeNull();
    }
    expect((await list("projections", { filter: { status: "rebuilding" } })).json()).toEqual([]);
    expect((await api.call("GET", "/api/v1/admin/projections/nope", { user: admin })).statusCode).toBe(404);
    expect((await api.call("POST", "/api/v1/admin/projections/nope/rebuild", { user: admin })).statusCode).toBe(404);
  });

  it("rebuilds one read model from the event store, to the same rows, one rebuild at a time", async () => {
    const before = await readModelDigest(api.ctx.db);

    // Another process holds this read model's rebuild: refused.
    const other = await api.ctx.db.connect();
    try {
      await other.query("SELECT pg_advisory_lock(hashtext('projection_rebuild'), hashtext('bookings'))");
      const busy = await api.call("POST", "/api/v1/admin/projections/bookings/rebuild", { user: admin });
      expect(busy.statusCode).toBe(409);
      expect(busy.json().code).toBe("projection_rebuild_running");
      await other.query("SELECT pg_advisory_unlock(hashtext('projection_rebuild'), hashtext('bookings'))");
    } finally {
      other.release();
    }

    const started = await api.call("POST", "/api/v1/admin/projections/bookings/rebuild", { user: admin });
    expect(started.statusCode).toBe(202);
    expect(started.json<ProjectionView>()).toMatchObject({ id: "bookings", rebuild: { state: "running" } });
    // While it runs (or right after), a second request for the same read model is refused.
    const second = await api.call("POST", "/api/v1/admin/projections/bookings/rebuild", { user: admin });
    const view = async () => (await api.call("GET", "/api/v1/admin/projections/bookings", { user: admin })).json<ProjectionView>();
    const firstStillRunning = second.statusCode === 409;
    if (!firstStillRunning) expect(second.statusCode).toBe(202);

    let current = await view();
    for (const deadline = Date.now() + 30_000; current.rebuild?.state === "running" && Date.now() < deadline; current = await view())
      await new Promise((r) => setTimeout(r, 20));
    expect(current.rebuild).toMatchObject({ state: "done", secondsLeft: 0 });
    expect(current.rebuild!.done).toBe(current.rebuild!.total);
    expect(current.rebuild!.total).toBeGreaterThan(0);
    expect(current.status).toBe("live");
    expect(await readModelDigest(api.ctx.db)).toEqual(before);

    // Live again: new writes reach the rebuilt read model.
    const expert = actorOf(expertUser);
    const bookingId = `bk-${randomUUID()}`;
    const session = {
      sessionId,
      expertId,
      title,
      lengthMinutes: 60 as const,
      priceCents: 15_000,
      published: true,
      prepQuestions: ["Goal?", "Audience?", "Blockers?"],
    };
    await must(
      api.ctx.calendar.handle(
        calendarStream(expertId),
        {
          type: "RequestBooking",
          expertId,
          bookingId,
          actor: actorOf(creator),
          scheduledTime: daysAhead(5),
          session,
          expertUserId: expert.userId,
          expertVetting: "approved",
          creatorAcceptedTerms: true,
          creatorBookings: [],
          holdMinutes: 15,
        },
        { actor: actorOf(creator) },
      ),
    );
    expect((await api.call("GET", `/api/v1/admin/bookings/${bookingId}`, { user: admin })).statusCode).toBe(200);
  });
});

describe("documentation", () => {
  it("still generates the OpenAPI document with the admin routes", async () => {
    const r = await api.call("GET", "/api/v1/docs");
    expect(r.statusCode).toBe(200);
    expect(Object.keys(r.json().paths)).toContain("/admin/bookings");
  });
});
