import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { errorCatalogue, type ExpertReview } from "@booking/contracts";
import { startTestApi, type TestApi, type TestUser } from "./harness.ts";

// Issue 34.5: an expert's reviews are never cut short in silence. The profile shows the newest page
// and, while older reviews remain, a `Link: rel="next"` header names the next page of
// GET /experts/{expertId}/reviews; following it reaches every visible review once, newest first
// (reviews written at the same instant included), and never a hidden one.

const V1 = "/api/v1";
const REVIEWS = 130;
let api: TestApi;
let expert: TestUser;
let slug: string;
let visible: string[];
const profile = { first_name: "Rhea", last_name: "Stone", title: "Editor", tags: [], published: true };

type Page = { status: number; reviews: ExpertReview[]; next: string | null; code?: string; message?: string };
const nextOf = (link: string | undefined) => (link ? /^<\/api\/v1(.+)>; rel="next"$/.exec(link)![1]! : null);

async function pageAt(path: string, user?: TestUser): Promise<Page> {
  const r = await api.call("GET", `${V1}${path}`, user ? { user } : {});
  const body = r.json<ExpertReview[] | { reviews: ExpertReview[] } | { code: string; message: string }>();
  if (Array.isArray(body)) return { status: r.statusCode, reviews: body, next: nextOf(r.headers.link as string | undefined) };
  if ("reviews" in body) return { status: r.statusCode, reviews: body.reviews, next: nextOf(r.headers.link as string | undefined) };
  return { status: r.statusCode, reviews: [], next: null, ...body };
}

beforeAll(async () => {
  api = await startTestApi();
  expert = await api.user("expert");
  const saved = await api.call("PATCH", `${V1}/experts/me`, { user: expert, body: profile });
  slug = saved.json<{ slug: string }>().slug;
  await api.approve(expert);
  // Reviews as the read model holds them (sessions and reviews by command would take minutes): one a minute back from
  // 2030, every third written at the same minute as the one before (the booking id orders those), every tenth hidden.
  await api.ctx.db.query(
    `INSERT INTO reviews (booking_id, review_id, expert_id, creator_id, rating, text, created_at, hidden, stream_version)
     SELECT 'b-' || lpad(n::text, 4, '0'), 'r-' || n, $1, 'creator-' || n, 1 + n % 5, 'Review ' || n,
       timestamptz '2030-01-01T00:00:00Z' - make_interval(mins => n - (n % 3 = 0)::int), n % 10 = 0, 1
     FROM generate_series(1, $2) n`,
    [expert.id, REVIEWS],
  );
  const { rows } = await api.ctx.db.query<{ review_id: string }>(
    "SELECT review_id FROM reviews WHERE expert_id = $1 AND NOT hidden ORDER BY created_at DESC, booking_id DESC",
    [expert.id],
  );
  visible = rows.map((r) => r.review_id);
  expect(visible).toHaveLength(REVIEWS - REVIEWS / 10);
});
afterAll(async () => api?.close());

describe(`an expert with ${REVIEWS} reviews`, () => {
  it("shows the newest 20 on the profile, and the Link header's pages reach every visible review once, newest first", async () => {
    const profile = await pageAt(`/experts/${slug}`);
    expect(profile.status).toBe(200);
    expect(profile.reviews).toHaveLength(20);
    expect(profile.next).toMatch(new RegExp(`^/experts/${expert.id}/reviews\\?before=[\\w-]+&limit=20$`));
    const seen = profile.reviews.map((r) => r.id);
    let pages = 1;
    for (let at = profile.next; at; pages++) {
      const page: Page = await pageAt(at);
      expect(page.status, page.message).toBe(200);
      seen.push(...page.reviews.map((r) => r.id));
      at = page.next;
    }
    expect(pages).toBe(Math.ceil(visible.length / 20));
    expect(seen).toEqual(visible);
  });

  it("pages by the size asked, and a page's reviews are the profile's words (first name and initial, no hidden review)", async () => {
    const first = await pageAt(`/experts/${expert.id}/reviews?limit=100`);
    const rest = await pageAt(first.next!);
    expect(first.reviews).toHaveLength(100);
    expect(rest.reviews).toHaveLength(visible.length - 100);
    expect(rest.next).toBeNull();
    expect([...first.reviews, ...rest.reviews].map((r) => r.id)).toEqual(visible);
    expect(first.reviews[0]).toEqual({
      id: visible[0],
      rating: expect.any(Number),
      review: expect.stringMatching(/^Review \d+$/),
      created_at: expect.any(String),
      creator: { first_name: "", last_initial: "" },
      reply: null,
    });
  });

  it("refuses a made-up cursor and a page size out of range with the catalogue's messages", async () => {
    for (const [query, code] of [
      ["before=not-a-cursor", "reviews_cursor_invalid"],
      [`before=${Buffer.from("yesterday|b-0001").toString("base64url")}`, "reviews_cursor_invalid"],
      ["limit=0", "reviews_page_size_invalid"],
      ["limit=101", "reviews_page_size_invalid"],
      ["limit=ten", "reviews_page_size_invalid"],
    ] as const) {
      const page = await pageAt(`/experts/${expert.id}/reviews?${query}`);
      expect(page.status, query).toBe(400);
      expect({ code: page.code, message: page.message }, query).toEqual({ code, message: errorCatalogue[code].message });
    }
  });

  it("are hidden with the profile: an unpublished expert's reviews are not found, except by the expert themselves", async () => {
    expect((await api.call("PATCH", `${V1}/experts/me`, { user: expert, body: { ...profile, published: false } })).statusCode).toBe(200);
    try {
      expect((await pageAt(`/experts/${expert.id}/reviews`)).code).toBe("profile_not_found");
      expect((await pageAt(`/experts/${expert.id}/reviews`, expert)).status).toBe(200);
    } finally {
      await api.call("PATCH", `${V1}/experts/me`, { user: expert, body: profile });
    }
  });

  it("is described in the OpenAPI document: the cursor, the page size and the Link header", async () => {
    const doc = (await api.call("GET", `${V1}/docs`)).json<{
      paths: Record<
        string,
        { get: { parameters: { name: string; in: string; description?: string }[]; responses: Record<string, unknown> } }
      >;
    }>();
    const get = doc.paths["/experts/{expertId}/reviews"]!.get;
    expect(get.parameters.find((p) => p.in === "query" && p.name === "before")?.description).toMatch(/rel="next"/);
    expect(get.parameters.find((p) => p.in === "query" && p.name === "limit")?.description).toMatch(/1 to 100/);
    expect(JSON.stringify(doc.paths["/experts/{slug}"]!.get.responses["200"])).toMatch(/rel=\\"next\\"/);
  });
});
