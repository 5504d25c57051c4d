import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { calendarStream } from "@booking/engine";
import { startTestApi, type TestApi, type TestUser } from "./harness.ts";

// Experts, schedules, sessions, availability and the booking lifecycle through /api/v1, over the
// real engine, projections and Postgres.

let api: TestApi;
let expert: TestUser;
let creator: TestUser;
let otherCreator: TestUser;
let sessionId: string;
let slug: string;
const V1 = "/api/v1";

const everyDay = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"].map((weekday) => ({
  weekday,
  start_local: "00:00",
  end_local: "23:30",
}));
const profile = {
  first_name: "Maya",
  last_name: "Lind",
  title: "Brand partnerships advisor",
  bio: "Deals.\n\nMore deals.",
  tags: ["brand deals", "Growth"],
};

beforeAll(async () => {
  api = await startTestApi();
  expert = await api.user("expert");
  creator = await api.user("creator", { firstName: "Cora" });
  otherCreator = await api.user("creator");
});
afterAll(async () => api.close());

const expectError = (r: { statusCode: number; json: () => unknown }, status: number, code: string, message?: string) => {
  expect(r.statusCode, JSON.stringify(r.json())).toBe(status);
  expect(r.json()).toMatchObject(message ? { code, message } : { code });
};

describe("expert profile", () => {
  it("a new expert gets the empty default profile", async () => {
    const r = await api.call("GET", `${V1}/experts/me`, { user: expert });
    expect(r.json()).toMatchObject({ id: null, first_name: "", published: false, tags: [] });
  });
  it("refuses missing names and title with the spec's messages", async () => {
    expectError(
      await api.call("PATCH", `${V1}/experts/me`, { user: expert, body: { ...profile, first_name: " " } }),
      400,
      "profile_names_required",
      "First and Last name are required.",
    );
    expectError(
      await api.call("PATCH", `${V1}/experts/me`, { user: expert, body: { ...profile, title: "" } }),
      400,
      "profile_title_required",
      "Title is required.",
    );
  });
  it("Save Profile keeps it unpublished; Publish Profile publishes it", async () => {
    const saved = await api.call("PATCH", `${V1}/experts/me`, { user: expert, body: profile });
    expect(saved.statusCode).toBe(200);
    expect(saved.json()).toMatchObject({ id: expert.id, published: false, verified: false, tags: ["brand deals", "Growth"] });
    slug = saved.json().slug;
    expect(slug).toMatch(/^maya-lind-/);
    expect((await api.call("GET", `${V1}/experts/${slug}`)).statusCode).toBe(404); // unpublished: hidden from the public
    expect((await api.call("GET", `${V1}/experts/${slug}`, { user: expert })).statusCode).toBe(200); // but previewable
    const published = await api.call("PATCH", `${V1}/experts/me`, { user: expert, body: { ...profile, published: true } });
    await api.approve(expert);
    expect(published.json()).toMatchObject({ published: true, slug });
  });
  it("saving a published profile keeps it published and listed; unpublishing is its own explicit call", async () => {
    const listed = async () => ((await api.call("GET", `${V1}/experts`)).json() as { slug: string }[]).some((e) => e.slug === slug);
    const saved = await api.call("PATCH", `${V1}/experts/me`, { user: expert, body: { ...profile, title: "Brand partnerships lead" } });
    expect(saved.json()).toMatchObject({ published: true, title: "Brand partnerships lead" });
    expect(await listed()).toBe(true);
    expect((await api.call("PATCH", `${V1}/experts/me`, { user: expert, body: { ...profile, published: false } })).json()).toMatchObject({
      published: false,
    });
    expect(await listed()).toBe(false);
    expect((await api.call("PATCH", `${V1}/experts/me`, { user: expert, body: { ...profile, published: true } })).json()).toMatchObject({
      published: true,
    });
  });
  it("creators cannot edit expert profiles", async () => {
    expectError(await api.call("PATCH", `${V1}/experts/me`, { user: creator, body: profile }), 403, "forbidden");
  });
});

describe("weekly schedule", () => {
  it("refuses overlapping, backwards and off-grid slots and unknown zones with their messages", async () => {
    const post = (body: unknown) => api.call("POST", `${V1}/experts/${expert.id}/schedule`, { user: expert, body });
    expectError(
      await post({
        timezone: "UTC",
        slots: [
          { weekday: "monday", start_local: "09:00", end_local: "12:00" },
          { weekday: "monday", start_local: "11:00", end_local: "13:00" },
        ],
      }),
      400,
      "schedule_slots_overlap",
      "You can not add overlapping slots",
    );
    expectError(
      await post({ timezone: "UTC", slots: [{ weekday: "monday", start_local: "12:00", end_local: "09:00" }] }),
      400,
      "schedule_end_before_start",
      "End time must be after start time",
    );
    expectError(
      await post({ timezone: "UTC", slots: [{ weekday: "monday", start_local: "09:10", end_local: "12:00" }] }),
      400,
      "schedule_time_invalid",
    );
    expectError(await post({ timezone: "Moon/Base", slots: [] }), 400, "schedule_timezone_invalid");
  });
  it("only the expert sets their schedule", async () => {
    const other = await api.user("expert");
    expectError(
      await api.call("POST", `${V1}/experts/${expert.id}/schedule`, { user: other, body: { timezone: "UTC", slots: [] } }),
      403,
      "forbidden",
    );
  });
  it("an expert without a profile cannot set a schedule", async () => {
    const fresh = await api.user("expert");
    expectError(
      await api.call("POST", `${V1}/experts/${fresh.id}/schedule`, { user: fresh, body: { timezone: "UTC", slots: everyDay } }),
      403,
      "expert_profile_required",
    );
  });
  it("saves and returns the schedule with booked periods", async () => {
    const r = await api.call("POST", `${V1}/experts/${expert.id}/schedule`, { user: expert, body: { timezone: "UTC", slots: everyDay } });
    expect(r.statusCode).toBe(200);
    const got = await api.call("GET", `${V1}/experts/${expert.id}/schedule`, { user: creator });
    expect(got.json()).toMatchObject({ timezone: "UTC", booked: [] });
    expect(got.json().slots).toHaveLength(7);
  });
});

describe("sessions", () => {
  const valid = {
    title: "Deck review",
    description: "Bring your deck",
    price: 150,
    length_minutes: 60,
    prep_question_1: "Goal?",
    prep_question_2: "Audience?",
    prep_question_3: "",
    session_details: "We go slide by slide",
    ideal_for: "podcasters, makers ,",
    status: "draft",
  };
  it("refuses invalid sessions with the spec's messages", async () => {
    const post = (body: unknown) => api.call("POST", `${V1}/sessions`, { user: expert, body });
    expectError(await post({ ...valid, title: "  " }), 400, "session_title_required", "Please enter a session title.");
    const priceRefused = "Please enter a valid price of at least $1, in dollars and cents.";
    // 0.001 used to round to a free session; 0 and 0.99 are below the lowest price.
    for (const price of [-1, 0, 0.001, 0.5, 0.99, 10.005])
      expectError(await post({ ...valid, price }), 400, "session_price_invalid", priceRefused);
    for (const price of [1, 10.5, 99.99]) expect((await post({ ...valid, price })).statusCode, `price ${price}`).toBe(201);
    expectError(await post({ ...valid, length_minutes: 45 }), 400, "session_length_invalid", "Please choose a valid session length.");
    expectError(await post({ ...valid, prep_question_1: "", prep_question_2: null }), 400, "session_prep_questions_invalid");
    expectError(await post({ ...valid, surprise: true }), 400, "invalid_request");
  });
  it("creates a draft, publishes it by a status-only update, and hides drafts from others", async () => {
    const created = await api.call("POST", `${V1}/sessions`, { user: expert, body: valid });
    expect(created.statusCode).toBe(201);
    const s = created.json().session;
    sessionId = s.id;
    expect(s).toMatchObject({
      status: "draft",
      price: 150,
      length_minutes: 60,
      prep_questions: ["Goal?", "Audience?"],
      ideal_for: ["podcasters", "makers"],
      expert: { id: expert.id, name: "Maya Lind" },
    });
    expect((await api.call("GET", `${V1}/sessions/${sessionId}`)).statusCode).toBe(404);
    expect((await api.call("GET", `${V1}/experts/${expert.id}/sessions`)).json()).toEqual([]);
    const published = await api.call("PUT", `${V1}/sessions/${sessionId}`, { user: expert, body: { status: "published" } });
    expect(published.json().session.status).toBe("published");
    expect((await api.call("GET", `${V1}/sessions/${sessionId}`)).json()).toMatchObject({
      title: "Deck review",
      expert: { first_name: "Maya" },
    });
  });
  it("a full update changes the definition; another expert cannot", async () => {
    const r = await api.call("PUT", `${V1}/sessions/${sessionId}`, { user: expert, body: { ...valid, price: 120, status: "published" } });
    expect(r.json().session).toMatchObject({ price: 120, status: "published" });
    const other = await api.user("expert");
    expectError(await api.call("PUT", `${V1}/sessions/${sessionId}`, { user: other, body: { status: "draft" } }), 403, "not_session_owner");
  });
  it("publishing or deleting an unsaved session says to save it first", async () => {
    expectError(
      await api.call("PUT", `${V1}/sessions/no-such-session`, { user: expert, body: { status: "published" } }),
      409,
      "session_not_saved_publish",
      "Save the session first before publishing",
    );
    expectError(
      await api.call("DELETE", `${V1}/sessions/no-such-session`, { user: expert }),
      409,
      "session_not_saved_delete",
      "Save the session first before deleting",
    );
  });
  it("deletes a session", async () => {
    const extra = (await api.call("POST", `${V1}/sessions`, { user: expert, body: valid })).json().session.id;
    expect((await api.call("DELETE", `${V1}/sessions/${extra}`, { user: expert })).json()).toEqual({ session: { id: extra } });
    expectError(await api.call("GET", `${V1}/sessions/${extra}`, { user: expert }), 404, "session_not_found", "Session Not Found");
  });
});

describe("experts listing", () => {
  it("lists published, approved experts with their starting price, and shows the profile with its sessions", async () => {
    const list = (await api.call("GET", `${V1}/experts`)).json();
    expect(list).toContainEqual({
      // The listing's own additions (issue 30.5): the next opening (or none) and how fast the expert answers (none yet).
      next_available: list.find((e: { id: string }) => e.id === expert.id)?.next_available ?? null,
      median_answer_minutes: null,
      id: expert.id,
      user_id: expert.id,
      slug,
      name: "Maya Lind",
      role: "Brand partnerships advisor",
      startingprice: 120,
      starting_price_cents: 12_000,
      starting_price_currency: "USD",
      rating: null,
      review_count: 0,
      image: null,
      verified: true,
    });
    const detail = (await api.call("GET", `${V1}/experts/${slug}`)).json();
    expect(detail).toMatchObject({ first_name: "Maya", bio: "Deals.\n\nMore deals.", reviews: [] });
    expect(detail.sessions.map((s: { id: string }) => s.id)).toEqual([sessionId]);
  });
  it("searches by name, title and tag, safely", async () => {
    for (const term of ["maya", "PARTNERSHIPS", "growth"])
      expect((await api.call("GET", `${V1}/experts/search?search=${term}`)).json().map((e: { id: string }) => e.id)).toContain(expert.id);
    for (const term of ["%", "_", "'; DROP TABLE experts; --", "\\"]) {
      const r = await api.call("GET", `${V1}/experts/search?search=${encodeURIComponent(term)}`);
      expect(r.statusCode).toBe(200);
      expect(r.json()).toEqual([]);
    }
  });
  it("an unknown slug is 'Profile Not Found'", async () => {
    expectError(await api.call("GET", `${V1}/experts/nobody-here`), 404, "profile_not_found", "Profile Not Found");
  });
});

describe("bookings", () => {
  let bookingId: string;
  let times: string[];

  it("availability lists bookable times in the expert's zone", async () => {
    const r = await api.call("GET", `${V1}/sessions/${sessionId}/availability`);
    expect(r.json()).toMatchObject({ timezone: "UTC", length_minutes: 60 });
    times = r.json().times;
    expect(times.length).toBeGreaterThan(100);
  });
  it("refuses experts, creators without accepted terms, and unknown sessions", async () => {
    expectError(
      await api.call("POST", `${V1}/bookings`, { user: expert, body: { session_id: sessionId, scheduled_time: times[3] } }),
      403,
      "only_creators_book",
      "Experts cannot book sessions.",
    );
    const newcomer = await api.user("creator", { acceptTerms: false });
    expectError(
      await api.call("POST", `${V1}/bookings`, { user: newcomer, body: { session_id: sessionId, scheduled_time: times[3] } }),
      403,
      "terms_not_accepted",
    );
    expectError(
      await api.call("POST", `${V1}/bookings`, { user: creator, body: { session_id: "nope", scheduled_time: times[3] } }),
      404,
      "session_not_found",
    );
    expectError(await api.call("POST", `${V1}/bookings`), 401, "no_access_token", "No access token found");
  });
  it("books a free time; the same time again is refused with the spec's message", async () => {
    const r = await api.call("POST", `${V1}/bookings`, { user: creator, body: { session_id: sessionId, scheduled_time: times[3] } });
    expect(r.statusCode).toBe(201);
    bookingId = r.json().booking.id;
    expect(r.json().booking).toMatchObject({
      status: "pending",
      scheduled_time: times[3],
      session_title: "Deck review",
      creator_name: "Cora Test",
      expert_name: "Maya Lind",
      payment_state: "unpaid",
      price: 120,
    });
    expectError(
      await api.call("POST", `${V1}/bookings`, { user: otherCreator, body: { session_id: sessionId, scheduled_time: times[3] } }),
      409,
      "slot_unavailable",
      "That time slot is no longer available. Please pick another.",
    );
    expect((await api.call("GET", `${V1}/sessions/${sessionId}/availability`)).json().times).not.toContain(times[3]);
  });
  it("an Idempotency-Key makes a retried request return the first booking", async () => {
    const body = { session_id: sessionId, scheduled_time: times[20] };
    const headers = { "idempotency-key": "wizard-7f3a" };
    const first = await api.call("POST", `${V1}/bookings`, { user: otherCreator, body, headers });
    const again = await api.call("POST", `${V1}/bookings`, { user: otherCreator, body, headers });
    expect(again.statusCode).toBe(201);
    expect(again.json().booking.id).toBe(first.json().booking.id);
  });
  it("each party sees the booking; anyone else gets 'No booking found'", async () => {
    expect((await api.call("GET", `${V1}/bookings/${bookingId}`, { user: creator })).statusCode).toBe(200);
    expect((await api.call("GET", `${V1}/bookings/${bookingId}`, { user: expert })).json().prep_question_1).toBe("Goal?");
    expectError(await api.call("GET", `${V1}/bookings/${bookingId}`, { user: otherCreator }), 404, "booking_not_found", "No booking found");
    expectError(await api.call("GET", `${V1}/bookings/not-a-booking`, { user: creator }), 404, "booking_not_found");
    expect((await api.call("GET", `${V1}/bookings/creator/me`, { user: creator })).json().map((b: { id: string }) => b.id)).toEqual([
      bookingId,
    ]);
    // Issue 27.9: the expert sees a request once it is paid; an unpaid hold is not theirs to act on.
    expect((await api.call("GET", `${V1}/bookings/expert/me`, { user: expert })).json().map((b: { id: string }) => b.id)).not.toContain(
      bookingId,
    );
    expectError(await api.call("GET", `${V1}/bookings/expert/me`, { user: creator }), 403, "forbidden");
  });
  it("the expert cannot confirm before payment; after it the lifecycle runs to notes", async () => {
    expectError(
      await api.call("PATCH", `${V1}/bookings/${bookingId}/status`, { user: expert, body: { status: "confirmed" } }),
      409,
      "payment_required",
    );
    const paid = await api.ctx.calendar.handle(calendarStream(expert.id), {
      type: "RecordPayment",
      expertId: expert.id,
      bookingId,
      actor: { userId: "payments", role: "system" },
      paymentId: "pi_1",
      amountCents: 12_000,
      provider: "test",
    });
    expect(paid.ok).toBe(true);
    if (paid.ok) await api.ctx.projected(paid.value);
    expect((await api.call("GET", `${V1}/bookings/expert/me`, { user: expert })).json().map((b: { id: string }) => b.id)).toContain(
      bookingId,
    );

    expectError(
      await api.call("PATCH", `${V1}/bookings/${bookingId}/status`, {
        user: expert,
        body: { status: "more_info_requested", info_request_note: " " },
      }),
      400,
      "info_note_required",
    );
    const info = await api.call("PATCH", `${V1}/bookings/${bookingId}/status`, {
      user: expert,
      body: { status: "more_info_requested", info_request_note: "Which brands?" },
    });
    expect(info.json()).toMatchObject({ status: "more_info_requested", info_request_note: "Which brands?" });
    expectError(
      await api.call("PATCH", `${V1}/bookings/${bookingId}/prep`, {
        user: creator,
        body: { prep_response_1: "a", prep_response_2: "", prep_response_3: "c" },
      }),
      400,
      "prep_answers_required",
    );
    const prep = await api.call("PATCH", `${V1}/bookings/${bookingId}/prep`, {
      user: creator,
      body: { prep_response_1: "Nike", prep_response_2: "Adidas" },
    });
    expect(prep.json()).toMatchObject({ status: "pending", prep_response_2: "Adidas" });

    const proposal = await api.call("GET", `${V1}/sessions/${sessionId}/availability`);
    const newTime = proposal.json().times.find((t: string) => new Date(t).getUTCHours() === 14 && new Date(t).getUTCMinutes() === 0);
    expectError(
      await api.call("PATCH", `${V1}/bookings/${bookingId}/schedule`, { user: creator, body: { scheduled_time: newTime } }),
      403,
      "not_booking_party",
    );
    const proposed = await api.call("PATCH", `${V1}/bookings/${bookingId}/schedule`, { user: expert, body: { scheduled_time: newTime } });
    expect(proposed.json()).toMatchObject({ status: "time_proposed", scheduled_time: newTime, previous_time: times[3] });
    expectError(
      await api.call("PATCH", `${V1}/bookings/${bookingId}/status`, { user: expert, body: { status: "confirmed" } }),
      409,
      "booking_transition_refused",
    );
    const confirmed = await api.call("PATCH", `${V1}/bookings/${bookingId}/status`, { user: creator, body: { status: "confirmed" } });
    expect(confirmed.json().status).toBe("confirmed");

    expectError(await api.call("GET", `${V1}/bookings/${bookingId}/notes`, { user: creator }), 404, "not_found");
    expectError(
      await api.call("POST", `${V1}/bookings/${bookingId}/notes`, { user: creator, body: { summary: "mine" } }),
      403,
      "not_booking_party",
    );
    const notes = await api.call("POST", `${V1}/bookings/${bookingId}/notes`, {
      user: expert,
      body: { summary: "Great call", recap: "Deck reviewed", takeaways: ["Lead with numbers"], suggested_actions: ["Email three brands"] },
    });
    expect(notes.statusCode).toBe(201);
    expect((await api.call("GET", `${V1}/bookings/${bookingId}/notes`, { user: creator })).json()).toEqual({
      booking_id: bookingId,
      summary: "Great call",
      recap: "Deck reviewed",
      takeaways: ["Lead with numbers"],
      suggested_actions: ["Email three brands"],
    });
  });
  it("cancelling frees the time, and a cancelled booking cannot be cancelled again", async () => {
    // The last time offered: far from the times the other tests book (which depend on the hour the suite runs).
    const t = times.at(-1)!;
    const b = (await api.call("POST", `${V1}/bookings`, { user: creator, body: { session_id: sessionId, scheduled_time: t } })).json()
      .booking;
    expect((await api.call("GET", `${V1}/sessions/${sessionId}/availability`)).json().times).not.toContain(t);
    const cancelled = await api.call("PATCH", `${V1}/bookings/${b.id}/status`, { user: creator, body: { status: "cancelled" } });
    expect(cancelled.json()).toMatchObject({ status: "cancelled", cancelled_by: "creator" });
    expect((await api.call("GET", `${V1}/sessions/${sessionId}/availability`)).json().times).toContain(t);
    expectError(
      await api.call("PATCH", `${V1}/bookings/${b.id}/status`, { user: expert, body: { status: "cancelled" } }),
      409,
      "booking_transition_refused",
      "This booking is cancelled and can no longer be cancelled.",
    );
  });
});

describe("profile image", () => {
  const multipart = (bytes: Buffer, filename: string) => {
    const boundary = "----booking-test";
    const body = Buffer.concat([
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${filename}"\r\nContent-Type: image/png\r\n\r\n`,
      ),
      bytes,
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ]);
    return { body, headers: { "content-type": `multipart/form-data; boundary=${boundary}` } };
  };
  /** A real 2 x 2 PNG: uploads are decoded and re-encoded (see profile-photo.int.test.ts). */
  const png = Buffer.from(
    "iVBORw0KGgoAAAANSUhEUgAAAAIAAAACCAIAAAD91JpzAAAACXBIWXMAAAPoAAAD6AG1e1JrAAAAEklEQVQImWMwTjtjnHaGAUIBACS2BZUFBQd/AAAAAElFTkSuQmCC",
    "base64",
  );

  it("stores an image recognised by its content and serves it under a versioned URL", async () => {
    const upload = await api.call("POST", `${V1}/experts/me/image`, { user: expert, ...multipart(png, "avatar.png") });
    expect(upload.statusCode).toBe(200);
    const url: string = upload.json().url;
    expect(url).toMatch(new RegExp(`^/api/v1/media/experts/${expert.id}/profile\\?v=\\d+$`));
    const served = await api.call("GET", url);
    // Stored as the spec says, a JPEG, never the bytes as sent.
    expect(served.headers["content-type"]).toBe("image/jpeg");
    expect(served.rawPayload.subarray(0, 3).equals(Buffer.from([0xff, 0xd8, 0xff]))).toBe(true);
    expect((await api.call("DELETE", `${V1}/experts/me/image`, { user: expert })).statusCode).toBe(204);
    expect((await api.call("GET", url)).statusCode).toBe(404);
  });
  it("refuses a file that is not an image whatever its name says, and one over 5 MB", async () => {
    expectError(
      await api.call("POST", `${V1}/experts/me/image`, { user: expert, ...multipart(Buffer.from("<svg onload=alert(1)>"), "avatar.png") }),
      415,
      "image_invalid_type",
      "Invalid file type. Please upload an image.",
    );
    const big = Buffer.concat([png, Buffer.alloc(5 * 1024 * 1024 + 10, 0)]);
    const r = await api.call("POST", `${V1}/experts/me/image`, { user: expert, ...multipart(big, "big.png") });
    expect(r.statusCode).toBe(413);
  });
});
