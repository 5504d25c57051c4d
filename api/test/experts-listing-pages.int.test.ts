import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { errorCatalogue, type ExpertListItem } from "@booking/contracts";
import { startTestApi, type TestApi } from "./harness.ts";

// Issue 34.5: the experts listing is never cut short in silence. With more experts than a page holds,
// every one is reached by following the `Link: rel="next"` cursor, once, in the listing's own order
// (the engine's ranking over every match, not the read's), and a cursor the listing cannot follow is
// refused with the catalogue's message.

const V1 = "/api/v1";
const EXPERTS = 520;
let api: TestApi;
let listed: string[];

type Page = { status: number; items: ExpertListItem[]; next: string | null; code?: string; message?: string };
async function pageAt(path: string): Promise<Page> {
  const r = await api.call("GET", `${V1}${path}`);
  const link = r.headers.link as string | undefined;
  const body = r.json<ExpertListItem[] | { code: string; message: string }>();
  return Array.isArray(body)
    ? { status: r.statusCode, items: body, next: link ? /^<\/api\/v1(.+)>; rel="next"$/.exec(link)![1]! : null }
    : { status: r.statusCode, items: [], next: null, ...body };
}

/** Every page from `path` on, following the cursor, and how many pages that took. */
async function follow(path: string): Promise<{ ids: string[]; pages: number }> {
  const ids: string[] = [];
  let pages = 0;
  for (let at: string | null = path; at; pages++) {
    const page: Page = await pageAt(at);
    expect(page.status, page.message).toBe(200);
    ids.push(...page.items.map((e) => e.id));
    at = page.next;
  }
  return { ids, pages };
}

beforeAll(async () => {
  // No cache: the test changes the experts read model by hand, which moves no checkpoint.
  api = await startTestApi({ listingsCache: { ttlMs: 0 } });
  const expert = await api.user("expert");
  const profile = { first_name: "Nora", last_name: "Quillfeather", title: "Podcast growth coach", tags: ["podcasts"], published: true };
  expect((await api.call("PATCH", `${V1}/experts/me`, { user: expert, body: profile })).statusCode).toBe(200);
  await api.approve(expert);
  // 519 more approved experts as the read model would hold them (commands would take minutes), names in no particular order.
  await api.ctx.db.query(
    `INSERT INTO experts SELECT (jsonb_populate_record(e, jsonb_build_object('expert_id', 'bulk-' || n, 'user_id', 'bulk-' || n,
        'slug', 'bulk-' || n, 'last_name', md5(n::text)))).* FROM experts e, generate_series(1, $2 - 1) n WHERE e.expert_id = $1`,
    [expert.id, EXPERTS],
  );
  listed = (await api.ctx.db.query<{ expert_id: string }>("SELECT expert_id FROM experts WHERE published AND verified")).rows.map(
    (r) => r.expert_id,
  );
  expect(listed).toHaveLength(EXPERTS);
});
afterAll(async () => api?.close());

describe(`a listing of ${EXPERTS} experts`, () => {
  it("serves 500 without a limit, says there is more, and the next page holds the rest: every expert once", async () => {
    const first = await pageAt("/experts");
    expect(first.items).toHaveLength(500);
    expect(first.next).toMatch(/^\/experts\?before=[\w-]+&limit=500$/);
    const { ids, pages } = await follow("/experts");
    expect(pages).toBe(2);
    expect(ids).toHaveLength(EXPERTS);
    expect(new Set(ids)).toEqual(new Set(listed));
  });

  it("pages any sort and search in the listing's own order: small pages read the same ranking as large ones", async () => {
    for (const query of ["sort=price", "sort=recommended&search=Nora", "sort=rating"]) {
      const small = await follow(`/experts/search?${query}&limit=37`);
      const large = await follow(`/experts/search?${query}&limit=500`);
      expect(small.pages, query).toBe(Math.ceil(EXPERTS / 37));
      expect(small.ids, query).toEqual(large.ids);
      expect(new Set(small.ids).size, query).toBe(EXPERTS);
    }
  });

  it("keeps the search and filters in the next page's address", async () => {
    const first = await pageAt("/experts?search=nora&sort=soonest&limit=10");
    expect(first.next).toMatch(/^\/experts\?search=nora&sort=soonest&limit=10&before=[\w-]+$/);
    const second = await pageAt(first.next!);
    expect(second.items).toHaveLength(10);
    expect(second.items.map((e) => e.id)).not.toContain(first.items.at(-1)!.id);
  });

  it("refuses a made-up cursor, one whose expert has left the listing, and a page size out of range, with the catalogue's messages", async () => {
    const first = await pageAt("/experts?limit=3");
    const lastShown = first.items.at(-1)!.id;
    await api.ctx.db.query("UPDATE experts SET published = false WHERE expert_id = $1", [lastShown]);
    try {
      for (const [query, code] of [
        [first.next!.split("?")[1]!, "listing_cursor_invalid"],
        ["before=not-a-cursor", "listing_cursor_invalid"],
        [`before=${Buffer.from("expert|nobody").toString("base64url")}`, "listing_cursor_invalid"],
        [`before=${"a".repeat(201)}`, "listing_cursor_invalid"],
        ["limit=0", "listing_page_size_invalid"],
        ["limit=501", "listing_page_size_invalid"],
        ["limit=ten", "listing_page_size_invalid"],
      ] as const) {
        for (const route of ["/experts", "/experts/search"]) {
          const page = await pageAt(`${route}?${query}`);
          expect(page.status, `${route}?${query}`).toBe(400);
          expect({ code: page.code, message: page.message }, query).toEqual({ code, message: errorCatalogue[code].message });
        }
      }
    } finally {
      await api.ctx.db.query("UPDATE experts SET published = true WHERE expert_id = $1", [lastShown]);
    }
  });
});

describe("the OpenAPI document", () => {
  it("describes the listing's cursor and page size on both calls, and the Link header that gives the cursor", async () => {
    const doc = (await api.call("GET", `${V1}/docs`)).json<{
      paths: Record<
        string,
        { get: { parameters: { name: string; in: string; description?: string }[]; responses: Record<string, unknown> } }
      >;
    }>();
    for (const path of ["/experts", "/experts/search"]) {
      const params = doc.paths[path]!.get.parameters.filter((p) => p.in === "query");
      expect(params.find((p) => p.name === "before")?.description, path).toMatch(/rel="next"/);
      expect(params.find((p) => p.name === "limit")?.description, path).toMatch(/1 to 500/);
      expect(JSON.stringify(doc.paths[path]!.get.responses["200"]), path).toMatch(/rel=\\"next\\"/);
    }
  });
});
