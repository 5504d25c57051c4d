import { gunzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Actor, ExpertListItem } from "@booking/contracts";
import { expertStream } from "@booking/engine";
import { listExperts, expertListItem } from "@booking/projections";
import { waitForReadModels } from "../src/http/read-your-writes.ts";
import { ReplyCache, acceptsGzip } from "../src/http/reply-cache.ts";
import { startTestApi, type TestApi, type TestUser } from "./harness.ts";

// GET /experts and /experts/search answer from a cache of the serialised reply (src/http/reply-cache.ts).
// The cache's clock is frozen here and moved by hand: with it still, nothing but the cache's own
// rules can make a change show (no waiting, no timing). So these tests fail if the cache serves a
// stale listing after a write, and also if the listing is not cached where it is claimed to be.

const V1 = "/api/v1";
const STALENESS_MS = 1_000;
const TTL_MS = 60_000;

let api: TestApi;
let clock = 0;
let expert: TestUser;
let admin: TestUser;

type Item = ExpertListItem;

const listing = async (path = "/experts") => {
  const r = await api.call("GET", `${V1}${path}`);
  expect(r.statusCode, r.body).toBe(200);
  return r.json<Item[]>();
};
const mine = async (path?: string) => (await listing(path)).find((e) => e.id === expert.id);
const profile = { first_name: "Nora", last_name: "Quillfeather", title: "Podcast growth coach", tags: ["podcasts"] };
const session = { title: "Audit", description: "", price: 80, length_minutes: 60, prep_question_1: "Goal?", status: "published" };

beforeAll(async () => {
  api = await startTestApi({ listingsCache: { now: () => clock, maxStalenessMs: STALENESS_MS, ttlMs: TTL_MS } });
  expert = await api.user("expert");
  admin = await api.user("admin");
});
afterAll(async () => api.close());

describe("the reply", () => {
  it("is the listing the spec describes, with the headers of any JSON reply, the same from the cache", async () => {
    expect((await api.call("PATCH", `${V1}/experts/me`, { user: expert, body: { ...profile, published: true } })).statusCode).toBe(200);
    // Listed once our team approves the expert (issue 30).
    expect((await listing()).find((e) => e.id === expert.id)).toBeUndefined();
    await api.approve(expert);
    expect((await api.call("POST", `${V1}/sessions`, { user: expert, body: session })).statusCode).toBe(201);
    const first = await api.call("GET", `${V1}/experts`);
    const again = await api.call("GET", `${V1}/experts`);
    const item = first.json<Item[]>().find((e) => e.id === expert.id)!;
    expect(Object.keys(item)).toEqual([
      "id",
      "user_id",
      "slug",
      "name",
      "role",
      "startingprice",
      "starting_price_cents",
      "starting_price_currency",
      "rating",
      "review_count",
      "image",
      "verified",
      "next_available",
      "median_answer_minutes",
    ]);
    expect(item).toEqual({
      id: expert.id,
      user_id: expert.id,
      slug: expect.stringMatching(/^nora-quillfeather/),
      name: "Nora Quillfeather",
      role: "Podcast growth coach",
      startingprice: 80,
      starting_price_cents: 8_000,
      starting_price_currency: "USD",
      rating: null,
      review_count: 0,
      image: null,
      verified: true,
      // No schedule yet, and no request answered.
      next_available: null,
      median_answer_minutes: null,
    });
    expect(first.body).toBe(JSON.stringify(first.json()));
    for (const r of [first, again]) {
      expect(r.statusCode).toBe(200);
      expect(r.headers["content-type"]).toBe("application/json; charset=utf-8");
      expect(r.headers["content-length"]).toBe(String(Buffer.byteLength(first.body)));
    }
    expect(again.body).toBe(first.body);
    // The same header names as a reply that Fastify serialises itself.
    const detail = await api.call("GET", `${V1}/experts/${item.slug}`);
    expect(detail.headers["content-type"]).toBe("application/json; charset=utf-8");
    // (and Vary: the listing also comes gzipped to a client that asks for it)
    expect(Object.keys(first.headers).sort()).toEqual([...Object.keys(detail.headers), "vary"].sort());
    expect(first.headers.vary).toBe("accept-encoding");
  });

  it("search answers per term and still refuses unknown parameters", async () => {
    expect((await listing("/experts/search?search=quillfeather")).map((e) => e.id)).toEqual([expert.id]);
    expect((await listing("/experts/search?search=%20Quillfeather%20")).map((e) => e.id)).toEqual([expert.id]);
    expect(await listing("/experts/search?search=no-such-expert-anywhere")).toEqual([]);
    expect((await api.call("GET", `${V1}/experts/search?search=x&surprise=1`)).statusCode).toBe(400);
  });
});

describe("a write through this instance shows on the next GET (the cache's clock stands still)", () => {
  it("editing, unverifying, verifying and unpublishing the profile", async () => {
    await mine();
    await listing("/experts/search?search=quillfeather");
    await api.call("PATCH", `${V1}/experts/me`, { user: expert, body: { ...profile, title: "Audio strategist", published: true } });
    expect((await mine())?.role).toBe("Audio strategist");
    expect((await mine("/experts/search?search=quillfeather"))?.role).toBe("Audio strategist");

    // Unverified, the expert leaves the listing at once; verified again, they are back.
    const vet = (verified: boolean) =>
      api.call("PUT", `${V1}/admin/experts/${expert.id}`, { user: admin, body: { verified, reason: "Vetted" } });
    expect((await vet(false)).statusCode).toBe(200);
    expect(await mine()).toBeUndefined();
    expect((await vet(true)).statusCode).toBe(200);
    expect((await mine())?.verified).toBe(true);

    await api.call("PATCH", `${V1}/experts/me`, { user: expert, body: { ...profile, published: false } });
    expect(await mine()).toBeUndefined();
    expect(await mine("/experts/search?search=quillfeather")).toBeUndefined();
    await api.call("PATCH", `${V1}/experts/me`, { user: expert, body: { ...profile, published: true } });
    expect((await mine())?.role).toBe(profile.title);
  });

  it("adding, repricing, unpublishing and deleting sessions (the starting price)", async () => {
    expect((await mine())?.startingprice).toBe(80);
    const created = await api.call("POST", `${V1}/sessions`, { user: expert, body: { ...session, price: 45 } });
    const id = created.json<{ session: { id: string } }>().session.id;
    expect((await mine())?.startingprice).toBe(45);
    await api.call("PUT", `${V1}/sessions/${id}`, { user: expert, body: { ...session, price: 30 } });
    expect((await mine())?.startingprice).toBe(30);
    await api.call("PUT", `${V1}/sessions/${id}`, { user: expert, body: { status: "draft" } });
    expect((await mine())?.startingprice).toBe(80);
    await api.call("PUT", `${V1}/sessions/${id}`, { user: expert, body: { status: "published" } });
    expect((await mine())?.startingprice).toBe(30);
    await api.call("DELETE", `${V1}/sessions/${id}`, { user: expert });
    expect((await mine())?.startingprice).toBe(80);
  });

  it("prices in two currencies are never compared: the lowest price in the currency most sessions are priced in", async () => {
    const euros: string[] = [];
    for (const price of [95, 60]) {
      const created = await api.call("POST", `${V1}/sessions`, { user: expert, body: { ...session, price, currency: "EUR" } });
      expect(created.statusCode, created.body).toBe(201);
      euros.push(created.json<{ session: { id: string } }>().session.id);
    }
    expect(await mine()).toMatchObject({ startingprice: 60, starting_price_cents: 6_000, starting_price_currency: "EUR" });
    await api.call("DELETE", `${V1}/sessions/${euros[1]}`, { user: expert });
    // One in each (€95, $80): the tie goes to the currency first in the alphabet, not to the smaller number.
    expect(await mine()).toMatchObject({ startingprice: 95, starting_price_cents: 9_500, starting_price_currency: "EUR" });
    await api.call("DELETE", `${V1}/sessions/${euros[0]}`, { user: expert });
    expect(await mine()).toMatchObject({ startingprice: 80, starting_price_cents: 8_000, starting_price_currency: "USD" });
  });
});

describe("changes this instance did not write", () => {
  const actor = (): Actor => ({ userId: expert.id, role: "expert" });
  /** What another API instance does: append, wait for the read models, but through its own cache. */
  const saveElsewhere = async (title: string) => {
    const profileFields = {
      firstName: profile.first_name,
      lastName: profile.last_name,
      title,
      bio: null,
      tags: profile.tags,
      profileImage: null,
    };
    const result = await api.ctx.experts.handle(
      expertStream(expert.id),
      { type: "SaveExpertProfile", expertId: expert.id, actor: actor(), userId: expert.id, profile: profileFields, published: true },
      { actor: actor() },
    );
    if (!result.ok) throw new Error(JSON.stringify(result.refusal));
    expect(await waitForReadModels(api.ctx.db, result.value)).toBe(true);
  };

  it("show once the last checkpoint read is older than maxStalenessMs, not before (the listing is cached)", async () => {
    expect((await mine())?.role).toBe(profile.title);
    expect((await mine("/experts/search?search=quillfeather"))?.role).toBe(profile.title);
    await saveElsewhere("Written elsewhere");
    expect((await mine())?.role).toBe(profile.title);
    expect((await mine("/experts/search?search=quillfeather"))?.role).toBe(profile.title);
    clock += STALENESS_MS + 1;
    expect((await mine())?.role).toBe("Written elsewhere");
    expect((await mine("/experts/search?search=quillfeather"))?.role).toBe("Written elsewhere");
  });

  it("a change to the tables that moves no checkpoint shows after the TTL", async () => {
    clock += STALENESS_MS + 1;
    expect((await mine())?.role).toBe("Written elsewhere");
    await api.ctx.db.query("UPDATE experts SET title = 'Changed by hand' WHERE expert_id = $1", [expert.id]);
    clock += STALENESS_MS + 1;
    expect((await mine())?.role).toBe("Written elsewhere");
    clock += TTL_MS;
    expect((await mine())?.role).toBe("Changed by hand");
  });

  it("with maxStalenessMs 0 every request reads the checkpoints again, and concurrent misses share one query", async () => {
    let queries = 0;
    const strict = new ReplyCache(api.ctx.db, {
      readModels: ["experts", "sessions"],
      maxStalenessMs: 0,
      ttlMs: TTL_MS,
      maxEntries: 2,
      now: () => clock,
    });
    const get = async (key = "all") => {
      const body = await strict.get(key, async () => {
        queries++;
        return (await listExperts(api.ctx.db)).map((r) => expertListItem(r));
      });
      return (JSON.parse(body.toString()) as Item[]).find((e) => e.id === expert.id);
    };
    await Promise.all([get(), get(), get(), get()]);
    expect(queries).toBe(1);
    await get();
    expect(queries).toBe(1);
    await saveElsewhere("Strictly fresh");
    expect((await get())?.role).toBe("Strictly fresh");
    expect(queries).toBe(2);
    // At most maxEntries replies are kept; the least recently used goes first.
    await get("b");
    await get("c");
    expect(queries).toBe(4);
    await get("c");
    await get("b");
    expect(queries).toBe(4);
    await get("all");
    expect(queries).toBe(5);
  });

  it("nothing is cached while a read model rebuilds", async () => {
    const bypassed = api.ctx.listings.stats.bypassed;
    await api.ctx.db.query("UPDATE projection_checkpoints SET status = 'rebuilding' WHERE name = 'sessions'");
    try {
      clock += STALENESS_MS + 1;
      await mine();
      await api.ctx.db.query("UPDATE experts SET title = 'Mid-rebuild' WHERE expert_id = $1", [expert.id]);
      expect((await mine())?.role).toBe("Mid-rebuild");
      expect(api.ctx.listings.stats.bypassed).toBe(bypassed + 2);
    } finally {
      await api.ctx.db.query("UPDATE projection_checkpoints SET status = 'live' WHERE name = 'sessions'");
    }
  });
});

describe("compression", () => {
  it("a client that accepts gzip gets the same listing gzipped; one that does not, or refuses it, gets it plain", async () => {
    const plain = await api.call("GET", `${V1}/experts`);
    const zipped = await api.call("GET", `${V1}/experts`, { headers: { "accept-encoding": "gzip, deflate, br" } });
    expect(zipped.statusCode).toBe(200);
    expect(zipped.headers["content-encoding"]).toBe("gzip");
    expect(zipped.headers["content-type"]).toBe("application/json; charset=utf-8");
    expect(zipped.rawPayload.length).toBeLessThan(plain.rawPayload.length);
    expect(gunzipSync(zipped.rawPayload).toString("utf8")).toBe(plain.body);
    const search = await api.call("GET", `${V1}/experts/search?search=Nora`, { headers: { "accept-encoding": "gzip" } });
    expect(JSON.parse(gunzipSync(search.rawPayload).toString("utf8"))).toEqual(await listing("/experts/search?search=Nora"));
    for (const refused of [undefined, "identity", "gzip;q=0", "br", "*;q=0"]) {
      const r = await api.call("GET", `${V1}/experts`, { headers: refused === undefined ? {} : { "accept-encoding": refused } });
      expect(r.headers["content-encoding"], refused).toBeUndefined();
      expect(r.body, refused).toBe(plain.body);
    }
  });

  it("reads Accept-Encoding as HTTP does: by name or *, with q above 0", () => {
    expect(["gzip", "GZIP", "deflate, gzip;q=0.5", "*", "br;q=1, *;q=0.1", "gzip;q=1.0"].map(acceptsGzip)).toEqual([
      true,
      true,
      true,
      true,
      true,
      true,
    ]);
    expect([undefined, "", "identity", "br", "gzip;q=0", "*;q=0", "gzip;q=0, *", "deflate;q=0.5"].map(acceptsGzip)).toEqual([
      false,
      false,
      false,
      false,
      false,
      false,
      false,
      false,
    ]);
  });
});
