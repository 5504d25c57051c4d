import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { expertCalendar } from "./calendar-bookings.ts";
import { startTestApi, type TestApi, type TestUser } from "./harness.ts";

// Issue 34.5: a busy expert's bookings are all reachable, a page at a time by cursor (keyset), and a
// list is never cut short in silence: while older bookings remain, a Link header names the next page.

const V1 = "/api/v1";
let api: TestApi;
let expert: TestUser;
let creator: TestUser;
let oldest: string;

type Page = { ids: string[]; times: string[]; next: string | null; status: number };
async function pageAt(user: TestUser, path: string): Promise<Page> {
  const r = await api.call("GET", `${V1}${path}`, { user });
  const link = r.headers.link as string | undefined;
  const rows = r.statusCode === 200 ? r.json<{ id: string; scheduled_time: string }[]>() : [];
  return {
    status: r.statusCode,
    ids: rows.map((b) => b.id),
    times: rows.map((b) => b.scheduled_time),
    next: link ? /^<\/api\/v1(.+)>; rel="next"$/.exec(link)![1]! : null,
  };
}

beforeAll(async () => {
  api = await startTestApi({ clock: () => "2030-03-01T09:00:00.000Z" });
  expert = await api.user("expert");
  creator = await api.user("creator");
  await (await expertCalendar(api, expert)).confirmedBooking(creator, "2030-03-05T10:00:00.000Z");
  // 1,999 more as the read model would hold them, an hour apart back to 2029-12-12 (commands would take minutes).
  await api.ctx.db.query(
    `INSERT INTO bookings SELECT (jsonb_populate_record(b, jsonb_build_object('booking_id', 'bulk-' || n,
        'scheduled_time', b.scheduled_time - make_interval(hours => n)))).* FROM bookings b, generate_series(1, 1999) n
     WHERE b.expert_user_id = $1`,
    [expert.id],
  );
  oldest = "bulk-1999";
});
afterAll(async () => api?.close());

describe("an expert with 2,000 bookings", () => {
  it("reaches the oldest through the cursor: four pages of 500, each newest first, none repeated, the last without a next", async () => {
    const seen: string[] = [];
    const times: string[] = [];
    let path: string | null = "/bookings/expert/me?limit=500";
    let pages = 0;
    while (path) {
      const page: Page = await pageAt(expert, path);
      expect(page.status).toBe(200);
      seen.push(...page.ids);
      times.push(...page.times);
      path = page.next;
      pages++;
    }
    expect(pages).toBe(4);
    expect(seen).toHaveLength(2000);
    expect(new Set(seen).size).toBe(2000);
    expect(seen.at(-1)).toBe(oldest);
    expect([...times].sort().reverse()).toEqual(times);
  });

  it("without a limit serves 500 and says there is more; the creator's list pages the same way", async () => {
    const first = await pageAt(expert, "/bookings/expert/me");
    expect(first.ids).toHaveLength(500);
    expect(first.next).toMatch(/^\/bookings\/expert\/me\?before=[\w-]+&limit=500$/);
    const small = await pageAt(creator, "/bookings/creator/me?limit=1999");
    expect(small.status).toBe(400);
    const creatorFirst = await pageAt(creator, "/bookings/creator/me?limit=300");
    const creatorNext = await pageAt(creator, creatorFirst.next!);
    expect(creatorFirst.ids).toHaveLength(300);
    expect(creatorNext.ids[0]).not.toBe(creatorFirst.ids.at(-1));
    expect(Date.parse(creatorNext.times[0]!)).toBeLessThanOrEqual(Date.parse(creatorFirst.times.at(-1)!));
  });

  it("refuses a made-up cursor and a page size out of range with the catalogue's messages", async () => {
    for (const [query, code] of [
      ["before=not-a-cursor", "bookings_cursor_invalid"],
      [`before=${Buffer.from("yesterday|x").toString("base64url")}`, "bookings_cursor_invalid"],
      ["limit=0", "bookings_page_size_invalid"],
      ["limit=501", "bookings_page_size_invalid"],
      ["limit=ten", "bookings_page_size_invalid"],
    ]) {
      const r = await api.call("GET", `${V1}/bookings/expert/me?${query}`, { user: expert });
      expect(r.statusCode, query).toBe(400);
      expect(r.json().code, query).toBe(code);
    }
  });
});
