import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { errorBody, refusal } from "@booking/contracts";
import { attemptsPerMinute } from "../src/auth/routes.ts";
import { EARLIER_VERSIONS_KEPT } from "../src/early-access/requests.ts";
import { startTestApi, type TestApi, type TestUser } from "./harness.ts";

// Issue 13.1: the landing page's calls to action open /early-access. A visitor's request is kept
// (one per address, the latest shown, the answer the same either way) and listed for admins.
// Issue 26 item 10: anyone who knows an address can send the form for it, so a later request
// never erases an earlier one: the console shows the latest with the versions before it.

let api: TestApi;
let admin: TestUser;
let now = "2026-03-04T10:00:00.000Z";
// Every test's requests carry a tag of their own, so searches never meet another test's rows.
const tag = randomUUID().slice(0, 8);
let clients = 0;

beforeAll(async () => {
  api = await startTestApi({ clock: () => now });
  admin = await api.user("admin");
});
afterAll(async () => api?.close());

const ask = (body: unknown, from = `192.0.2.${(clients++ % 250) + 1}`) =>
  api.call("POST", "/api/v1/early-access", { body, headers: { "x-forwarded-for": from } });
const request = (over: Record<string, unknown> = {}) => ({
  name: "Nora Maker",
  email: `nora-${tag}@example.com`,
  role: "creator",
  need: `Help pricing my first brand deal ${tag}`,
  ...over,
});
const stored = async (email: string) =>
  (await api.ctx.db.query("SELECT name, email, role, need, created_at, updated_at FROM early_access_requests WHERE email = $1", [email]))
    .rows;
const list = (query: { sort?: unknown; range?: unknown; filter?: unknown } = {}, user: TestUser | null = admin, path = "") => {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) params.set(key, typeof value === "string" ? value : JSON.stringify(value));
  return api.call("GET", `/api/v1/admin/early-access${path}?${params}`, user ? { user } : {});
};

describe("POST /early-access", () => {
  it("keeps a request from a visitor with no account, trimmed and with the address lowercased", async () => {
    const email = `Ada-${tag}@Example.com`;
    const r = await ask({ name: "  Ada Lovelace ", email: ` ${email} `, role: "expert", need: " Someone to review my pitch deck. " });
    expect(r.statusCode).toBe(204);
    expect(r.body).toBe("");
    expect(await stored(email.toLowerCase())).toEqual([
      {
        name: "Ada Lovelace",
        email: email.toLowerCase(),
        role: "expert",
        need: "Someone to review my pitch deck.",
        created_at: new Date(now),
        updated_at: new Date(now),
      },
    ]);
  });

  it("updates the request when the same address asks again, answering exactly as for a new one", async () => {
    const email = `twice-${tag}@example.com`;
    const first = await ask(request({ email, need: "First need" }));
    const created = now;
    now = "2026-03-05T09:00:00.000Z";
    const again = await ask(request({ email: email.toUpperCase(), name: "Nora M.", role: "expert", need: "Second need" }));
    expect([again.statusCode, again.body, again.headers["content-type"]]).toEqual([
      first.statusCode,
      first.body,
      first.headers["content-type"],
    ]);
    expect(await stored(email)).toEqual([
      { name: "Nora M.", email, role: "expert", need: "Second need", created_at: new Date(created), updated_at: new Date(now) },
    ]);
    now = "2026-03-04T10:00:00.000Z";
  });

  it("refuses each missing or wrong field with the catalogue's message, storing nothing", async () => {
    const email = `refused-${tag}@example.com`;
    const cases: [Record<string, unknown>, Parameters<typeof refusal>[0]][] = [
      [{ name: "   " }, "early_access_name_required"],
      [{ name: "n".repeat(101) }, "early_access_name_required"],
      [{ email: "not-an-address" }, "early_access_email_invalid"],
      [{ email: `${"a".repeat(250)}@example.com` }, "early_access_email_invalid"],
      [{ role: "admin" }, "early_access_role_required"],
      [{ role: undefined }, "early_access_role_required"],
      [{ need: "" }, "early_access_need_required"],
      [{ need: "x".repeat(2001) }, "early_access_need_required"],
    ];
    for (const [change, code] of cases) {
      const r = await ask(request({ email, ...change }));
      expect(r.statusCode, JSON.stringify(change).slice(0, 80)).toBe(400);
      expect(r.json()).toEqual(errorBody(refusal(code)));
    }
    expect((await ask(request({ email, need: "x".repeat(2000) }))).statusCode).toBe(204);
    expect((await stored(email)).map((r) => r.need.length)).toEqual([2000]);
  });

  it("refuses NUL, unknown fields and malformed JSON with 400 invalid_request", async () => {
    const email = `nul-${tag}@example.com`;
    for (const body of [
      request({ email, need: "a\u0000b" }),
      request({ email, name: "N\u0000" }),
      request({ email, extra: 1 }),
      "{not json",
    ]) {
      const r = await api.call("POST", "/api/v1/early-access", {
        body,
        headers: { "content-type": "application/json", "x-forwarded-for": "192.0.2.251" },
      });
      expect(r.statusCode).toBe(400);
      expect(r.json()).toEqual(errorBody(refusal("invalid_request")));
    }
    expect(await stored(email)).toEqual([]);
  });

  it("is rate limited per client address like the credential routes", async () => {
    const from = "203.0.113.77";
    for (let i = 0; i < attemptsPerMinute(); i++)
      expect((await ask(request({ email: `limit-${i}-${tag}@example.com` }), from)).statusCode).toBe(204);
    const over = await ask(request({ email: `limit-over-${tag}@example.com` }), from);
    expect(over.statusCode).toBe(429);
    expect(over.json()).toEqual(errorBody(refusal("over_request_rate_limit")));
    expect((await ask(request({ email: `limit-other-${tag}@example.com` }))).statusCode).toBe(204);
  });
});

describe("a second request for an address (issue 26 item 10)", () => {
  /** The console's record of the request for `email`. */
  const shown = async (email: string) => {
    const r = await list({ filter: { q: email } });
    expect(r.statusCode).toBe(200);
    const rows = r.json() as {
      email: string;
      name: string;
      role: string;
      need: string;
      created_at: string;
      updated_at: string;
      earlier: unknown[];
    }[];
    return rows.filter((row) => row.email === email);
  };

  it("does not erase the first: the console shows the latest with the earlier version, when each was asked", async () => {
    const email = `victim-${tag}@example.com`;
    now = "2026-03-10T09:00:00.000Z";
    await ask(request({ email, name: "Vic Tim", role: "expert", need: "Coaching podcasters on growth" }));
    now = "2026-03-11T18:30:00.000Z";
    // Someone else who knows the address: answered exactly like the owner, and kept beside them.
    expect((await ask(request({ email, name: "Not Vic", role: "creator", need: "Cancel my request" }))).statusCode).toBe(204);
    expect(await shown(email)).toEqual([
      {
        id: expect.any(String),
        name: "Not Vic",
        email,
        role: "creator",
        need: "Cancel my request",
        created_at: "2026-03-10T09:00:00.000Z",
        updated_at: "2026-03-11T18:30:00.000Z",
        earlier: [{ name: "Vic Tim", role: "expert", need: "Coaching podcasters on growth", asked_at: "2026-03-10T09:00:00.000Z" }],
      },
    ]);
    now = "2026-03-04T10:00:00.000Z";
  });

  it("keeps every change, newest first, and adds none for the same request sent again", async () => {
    const email = `changes-${tag}@example.com`;
    const needs = ["First need", "Second need", "Second need", "Third need"];
    for (const [i, need] of needs.entries()) {
      now = `2026-03-0${i + 1}T08:00:00.000Z`;
      await ask(request({ email, need }));
    }
    const [row] = await shown(email);
    expect(row?.need).toBe("Third need");
    expect(row?.earlier).toEqual([
      { name: "Nora Maker", role: "creator", need: "Second need", asked_at: "2026-03-03T08:00:00.000Z" },
      { name: "Nora Maker", role: "creator", need: "First need", asked_at: "2026-03-01T08:00:00.000Z" },
    ]);
    now = "2026-03-04T10:00:00.000Z";
  });

  it(`keeps the first request and the newest ones, ${EARLIER_VERSIONS_KEPT} earlier versions at most`, async () => {
    const email = `flood-${tag}@example.com`;
    const sent = EARLIER_VERSIONS_KEPT + 5;
    for (let i = 0; i <= sent; i++) expect((await ask(request({ email, need: `Need number ${i}` }))).statusCode).toBe(204);
    const [row] = await shown(email);
    const earlier = (row?.earlier ?? []) as { need: string }[];
    expect(row?.need).toBe(`Need number ${sent}`);
    expect(earlier).toHaveLength(EARLIER_VERSIONS_KEPT);
    expect(earlier.at(-1)?.need).toBe("Need number 0");
    expect(earlier[0]?.need).toBe(`Need number ${sent - 1}`);
  });
});

describe("the console's list", () => {
  const admins = `list-${tag}`;
  beforeAll(async () => {
    now = "2026-01-10T12:00:00.000Z";
    await ask({ name: "Cara Creator", email: `cara-${admins}@example.com`, role: "creator", need: `Brand deals ${admins}` });
    now = "2026-01-20T12:00:00.000Z";
    await ask({ name: "Eli Expert", email: `eli-${admins}@example.com`, role: "expert", need: `Mentoring ${admins}` });
    now = "2026-02-01T12:00:00.000Z";
    await ask({
      name: "Fay Formula",
      email: `fay-${admins}@example.com`,
      role: "creator",
      need: `=HYPERLINK("http://evil") ${admins}, "quoted"`,
    });
    now = "2026-03-04T10:00:00.000Z";
  });

  const names = async (filter: Record<string, unknown>, sort: [string, string] = ["created_at", "ASC"]) => {
    const r = await list({ sort, filter: { q: admins, ...filter } });
    expect(r.statusCode, JSON.stringify(filter)).toBe(200);
    return (r.json() as { name: string }[]).map((x) => x.name);
  };

  it("lists requests with name, e-mail, role, need and times, with Content-Range", async () => {
    const r = await list({ sort: ["created_at", "DESC"], range: [0, 1], filter: { q: admins } });
    expect(r.statusCode).toBe(200);
    expect(r.headers["content-range"]).toBe("early-access 0-1/3");
    expect(r.headers["access-control-expose-headers"]).toBe("Content-Range");
    expect(r.json()).toEqual([
      {
        id: expect.any(String),
        name: "Fay Formula",
        email: `fay-${admins}@example.com`,
        role: "creator",
        need: expect.stringContaining("HYPERLINK"),
        created_at: "2026-02-01T12:00:00.000Z",
        updated_at: "2026-02-01T12:00:00.000Z",
        earlier: [],
      },
      {
        id: expect.any(String),
        name: "Eli Expert",
        email: `eli-${admins}@example.com`,
        role: "expert",
        need: `Mentoring ${admins}`,
        created_at: "2026-01-20T12:00:00.000Z",
        updated_at: "2026-01-20T12:00:00.000Z",
        earlier: [],
      },
    ]);
    const past = await list({ range: [5, 9], filter: { q: admins } });
    expect(past.headers["content-range"]).toBe("early-access */3");
    expect(past.json()).toEqual([]);
  });

  it("filters by search text (name, e-mail or need), role, id and creation date; sorts by name", async () => {
    expect(await names({})).toEqual(["Cara Creator", "Eli Expert", "Fay Formula"]);
    expect(await names({}, ["name", "DESC"])).toEqual(["Fay Formula", "Eli Expert", "Cara Creator"]);
    expect(await names({ role: "expert" })).toEqual(["Eli Expert"]);
    expect(await names({ role: ["creator", "expert"] })).toEqual(["Cara Creator", "Eli Expert", "Fay Formula"]);
    expect((await list({ filter: { q: `ELI-${admins}` } })).json().map((x: { name: string }) => x.name)).toEqual(["Eli Expert"]);
    expect((await list({ filter: { q: `Brand deals ${admins}` } })).json().map((x: { name: string }) => x.name)).toEqual(["Cara Creator"]);
    expect(await names({ created_from: "2026-01-20" })).toEqual(["Eli Expert", "Fay Formula"]);
    expect(await names({ created_to: "2026-01-20" })).toEqual(["Cara Creator", "Eli Expert"]); // the whole day
    expect(await names({ created_from: "2026-01-15T00:00:00+01:00", created_to: "2026-01-31T23:59:59Z" })).toEqual(["Eli Expert"]);
    const eli = (await list({ filter: { q: `eli-${admins}` } })).json()[0] as { id: string };
    expect(await names({ id: [eli.id] })).toEqual(["Eli Expert"]);
  });

  it("refuses unknown filters, sorts and impossible dates with 400", async () => {
    for (const query of [
      { filter: { status: "new" } },
      { sort: ["need; --", "ASC"] },
      { filter: { created_from: "2026-02-30" } },
      { filter: { created_to: "0000-01-01" } },
      { filter: { role: "admin" } },
      { range: [3, 1] },
    ]) {
      const r = await list(query);
      expect(r.statusCode, JSON.stringify(query)).toBe(400);
      expect(r.json()).toEqual(errorBody(refusal("invalid_request")));
    }
  });

  it("exports CSV with the same filters, fields quoted and formulas defused", async () => {
    const r = await list({ sort: ["created_at", "ASC"], filter: { q: admins, role: "creator" } }, admin, "/export.csv");
    expect(r.statusCode).toBe(200);
    expect(r.headers["content-type"]).toBe("text/csv; charset=utf-8");
    expect(r.headers["content-disposition"]).toBe('attachment; filename="early-access.csv"');
    const lines = r.body.trimEnd().split("\r\n");
    expect(lines[0]).toBe("id,name,email,role,need,created_at,updated_at");
    expect(lines).toHaveLength(3);
    expect(lines[1]).toMatch(
      new RegExp(
        `^[^,]+,Cara Creator,cara-${admins}@example\\.com,creator,Brand deals ${admins},2026-01-10T12:00:00\\.000Z,2026-01-10T12:00:00\\.000Z$`,
      ),
    );
    expect(lines[2]).toContain(`,"'=HYPERLINK(""http://evil"") ${admins}, ""quoted""",`);
    expect((await list({ filter: "{" }, admin, "/export.csv")).statusCode).toBe(400);
  });

  it("refuses creators and experts (403) and anonymous callers (401)", async () => {
    const creator = await api.user("creator");
    const expert = await api.user("expert");
    for (const path of ["", "/export.csv"]) {
      expect((await list({}, creator, path)).json()).toEqual(errorBody(refusal("forbidden")));
      expect((await list({}, expert, path)).statusCode).toBe(403);
      const anonymous = await list({}, null, path);
      expect(anonymous.statusCode).toBe(401);
      expect(anonymous.json()).toEqual(errorBody(refusal("no_access_token")));
    }
  });
});
