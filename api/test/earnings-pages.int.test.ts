import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { errorCatalogue, type ExpertMonthEarningsReply } from "@booking/contracts";
import { expertCalendar } from "./calendar-bookings.ts";
import { startTestApi, type TestApi, type TestUser } from "./harness.ts";

// Issue 34.5: a month's earnings list every booking of the month, a page at a time by cursor
// (keyset), while the month's totals stay the whole month's on every page; a list is never cut
// short in silence: while more bookings remain, a Link header names the next page.

const V1 = "/api/v1";
const BOOKINGS = 700;
let api: TestApi;
let expert: TestUser;
let admin: TestUser;

type Page = { status: number; body: ExpertMonthEarningsReply; next: string | null };
async function pageAt(user: TestUser, path: string): Promise<Page> {
  const r = await api.call("GET", `${V1}${path}`, { user });
  const link = r.headers.link as string | undefined;
  return {
    status: r.statusCode,
    body: r.json<ExpertMonthEarningsReply>(),
    next: link ? /^<\/api\/v1(.+)>; rel="next"$/.exec(link)![1]! : null,
  };
}

beforeAll(async () => {
  api = await startTestApi({ clock: () => "2030-03-01T09:00:00.000Z" });
  expert = await api.user("expert");
  admin = await api.user("admin");
  const creator = await api.user("creator");
  await (await expertCalendar(api, expert)).confirmedBooking(creator, "2030-03-05T10:00:00.000Z", 10_000, "Audit");
  // 699 more earning bookings of March as the read model would hold them, a minute apart back from the first (commands would take
  // minutes); every fifth at the same time as the one before, which the booking id orders.
  await api.ctx.db.query(
    `INSERT INTO earnings SELECT (jsonb_populate_record(e, jsonb_build_object('booking_id', 'bulk-' || lpad(n::text, 4, '0'),
        'scheduled_time', e.scheduled_time - make_interval(mins => n - (n % 5 = 0)::int)))).*
     FROM earnings e, generate_series(1, $2 - 1) n WHERE e.expert_id = $1`,
    [expert.id, BOOKINGS],
  );
});
afterAll(async () => api?.close());

describe(`a month of ${BOOKINGS} earning bookings`, () => {
  it("reaches every booking through the cursor, by session time, once; every page carries the whole month's totals", async () => {
    const whole = await pageAt(expert, "/experts/me/earnings/2030-03?limit=500");
    expect(whole.body.bookings).toHaveLength(500);
    expect(whole.next).toMatch(/^\/experts\/me\/earnings\/2030-03\?before=[\w-]+&limit=500$/);
    const seen: string[] = [];
    const times: string[] = [];
    let pages = 0;
    for (let path: string | null = "/experts/me/earnings/2030-03?limit=150"; path; pages++) {
      const page: Page = await pageAt(expert, path);
      expect(page.status).toBe(200);
      expect(page.body.sessions).toBe(BOOKINGS);
      expect(page.body.gross_cents).toBe(BOOKINGS * 10_000);
      seen.push(...page.body.bookings.map((b) => b.booking_id));
      times.push(...page.body.bookings.map((b) => b.scheduled_time));
      path = page.next;
    }
    expect(pages).toBe(Math.ceil(BOOKINGS / 150));
    expect(new Set(seen).size).toBe(BOOKINGS);
    expect([...times].sort()).toEqual(times);
  });

  it("pages an admin's view of the expert the same way", async () => {
    const first = await pageAt(admin, `/experts/${expert.id}/earnings/2030-03`);
    const rest = await pageAt(admin, first.next!);
    expect(first.body.bookings).toHaveLength(500);
    expect(first.next).toMatch(new RegExp(`^/experts/${expert.id}/earnings/2030-03\\?before=[\\w-]+&limit=500$`));
    expect(rest.body.bookings).toHaveLength(BOOKINGS - 500);
    expect(rest.next).toBeNull();
  });

  it("refuses a made-up cursor and a page size out of range with the catalogue's messages", async () => {
    for (const [query, code] of [
      ["before=not-a-cursor", "earnings_cursor_invalid"],
      [`before=${Buffer.from("yesterday|x").toString("base64url")}`, "earnings_cursor_invalid"],
      ["limit=0", "earnings_page_size_invalid"],
      ["limit=501", "earnings_page_size_invalid"],
    ] as const) {
      const r = await api.call("GET", `${V1}/experts/me/earnings/2030-03?${query}`, { user: expert });
      expect(r.statusCode, query).toBe(400);
      expect(r.json(), query).toEqual({ code, message: errorCatalogue[code].message });
    }
  });
});
