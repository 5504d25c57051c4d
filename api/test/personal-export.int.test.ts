import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { injectPost, signUpVerified } from "./auth-client.ts";
import { expertCalendar } from "./calendar-bookings.ts";
import { startTestApi, type TestApi, type TestUser } from "./harness.ts";

// Issue 33.3: a person downloads everything the product holds about them as one JSON document, and an
// admin can produce it for them. Each section is what the read model holds, row for row; secrets
// (the password's hash, refresh tokens) are never in it; nobody else's export is reachable.

const V1 = "/api/v1";
let api: TestApi;
let creator: TestUser & { accessToken: string };
let expert: TestUser;
let bookingId: string;

type Export = {
  user_id: string;
  sections: Record<string, { rows: Record<string, unknown>[] }>;
  events: { stream: string; type: string }[];
};
const exportOf = async (token: string, path = "/me/export") => {
  const r = await api.call("GET", `${V1}${path}`, { headers: { authorization: `Bearer ${token}` } });
  return r;
};
const rows = async (sql: string, values: unknown[]) => JSON.parse(JSON.stringify((await api.ctx.db.query(sql, values)).rows));

beforeAll(async () => {
  api = await startTestApi({ clock: () => "2030-03-01T09:00:00.000Z" });
  const session = await signUpVerified(
    api.ctx.db,
    injectPost(() => api),
    {
      email: "cora.export@example.com",
      password: "Cora-password-1",
      role: "creator",
      first_name: "Cora",
      last_name: "Quinn",
    },
  );
  const terms = await api.call("GET", `${V1}/terms/latest`);
  await api.call("POST", `${V1}/terms/accept`, {
    headers: { authorization: `Bearer ${session.access_token}` },
    body: { version_id: terms.json().version_id },
  });
  creator = {
    id: session.user.id,
    role: "creator",
    email: "cora.export@example.com",
    token: session.access_token,
    accessToken: session.access_token,
  };
  expert = await api.user("expert", { firstName: "Ava" });
  bookingId = await (await expertCalendar(api, expert)).confirmedBooking(creator, "2030-03-05T10:00:00.000Z");
  const said = await api.call("POST", `${V1}/bookings/${bookingId}/messages`, { user: creator, body: { text: "Can we cover pricing?" } });
  expect(said.statusCode, said.body).toBe(200);
});
afterAll(async () => api?.close());

describe("downloading your data", () => {
  it("is one JSON file of every read model's rows about you, equal to what the read models hold", async () => {
    const r = await exportOf(creator.accessToken);
    expect(r.statusCode, r.body).toBe(200);
    expect(r.headers["content-disposition"]).toMatch(/^attachment; filename="expert-sessions-data-\d{4}-\d{2}-\d{2}\.json"$/);
    expect(r.headers["cache-control"]).toBe("private, no-store");
    const doc = r.json<Export>();
    expect(doc.user_id).toBe(creator.id);
    expect(doc.sections.bookings!.rows).toEqual(await rows("SELECT * FROM bookings WHERE booking_id = $1", [bookingId]));
    expect(doc.sections.messages!.rows).toEqual(await rows("SELECT * FROM messages WHERE booking_id = $1 ORDER BY seq", [bookingId]));
    expect(doc.sections.user!.rows).toEqual(await rows("SELECT * FROM users WHERE user_id = $1", [creator.id]));
    expect(doc.sections.terms_acceptances!.rows).toEqual(await rows("SELECT * FROM terms_acceptances WHERE user_id = $1", [creator.id]));
    expect(doc.sections.account!.rows).toEqual([expect.objectContaining({ email: "cora.export@example.com", first_name: "Cora" })]);
    expect(doc.sections.mails!.rows.map((m) => m.kind)).toContain("verify_email");
    expect(doc.sections.sign_ins!.rows).toHaveLength(1);
    expect(doc.events.map((e) => [e.stream, e.type])).toEqual(
      expect.arrayContaining([
        [`user-${creator.id}`, "UserRegistered"],
        [`terms-${creator.id}`, "TermsAccepted"],
      ]),
    );
  });

  it("never holds a secret: no password hash, no refresh token, no sign-in link", async () => {
    const body = (await exportOf(creator.accessToken)).body;
    const { rows: account } = await api.ctx.db.query("SELECT password_hash FROM accounts WHERE user_id = $1", [creator.id]);
    expect(body).not.toContain(account[0].password_hash);
    expect(body).not.toContain("password_hash");
    expect(body).not.toContain("token_hash");
  });

  it("an admin produces it for a user on request; nobody else can, and an unknown user is not found", async () => {
    const admin = await api.user("admin");
    const forCreator = await exportOf(admin.token, `/admin/users/${creator.id}/export`);
    expect(forCreator.statusCode).toBe(200);
    expect(forCreator.json<Export>().sections.bookings!.rows.map((b) => b.booking_id)).toEqual([bookingId]);
    expect((await exportOf(expert.token, `/admin/users/${creator.id}/export`)).statusCode).toBe(403);
    expect((await exportOf(admin.token, `/admin/users/no-such-user/export`)).statusCode).toBe(404);
    expect((await api.call("GET", `${V1}/me/export`)).statusCode).toBe(401);
    // The expert's own export holds the booking too, but not the creator's account or mails.
    const theirs = (await exportOf(expert.token)).json<Export>();
    expect(theirs.sections.bookings!.rows.map((b) => b.booking_id)).toEqual([bookingId]);
    expect(JSON.stringify(theirs)).not.toContain("cora.export@example.com");
  });
});
