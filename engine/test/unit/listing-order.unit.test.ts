import { describe, expect, it } from "vitest";
import { ExpertListQuery } from "@booking/contracts";
import {
  orderListing,
  passesFilters,
  recommendedScore,
  searchRelevance,
  openingLength,
  type ListingCandidate,
} from "../../src/expert/listing-order.ts";

// The experts listing's rules (issue 30.5): what each sort puts first, what each filter keeps.

const NOW = "2026-12-01T12:00:00.000Z";

const expert = (name: string, over: Partial<ListingCandidate> = {}): ListingCandidate => ({
  expertId: name.toLowerCase().replace(/\s+/g, "-"),
  name,
  title: "Coach",
  tags: [],
  offered: [{ lengthMinutes: 60, priceCents: 10_000, currency: "USD" }],
  startingPrice: { cents: 10_000, currency: "USD" },
  rating: null,
  reviewCount: 0,
  medianAnswerMinutes: null,
  answeredRequests: 0,
  cancelledByExpert: 0,
  expertNoShows: 0,
  sessionsDue: 0,
  nextAvailable: null,
  ...over,
});

const names = (list: ListingCandidate[]) => list.map((c) => c.name);
const query = (q: Record<string, string>) => ExpertListQuery.parse(q);

describe("the recommended order", () => {
  it("puts a responsive, well-rated expert above a slow one with the same rating, and many good reviews above one perfect review", () => {
    const quick = expert("Quick Quinn", { rating: 4.8, reviewCount: 20, medianAnswerMinutes: 90, answeredRequests: 20 });
    const slow = expert("Slow Sam", { rating: 4.8, reviewCount: 20, medianAnswerMinutes: 3000, answeredRequests: 20 });
    const lucky = expert("Lucky Lee", { rating: 5, reviewCount: 1, medianAnswerMinutes: 90, answeredRequests: 1 });
    expect(names(orderListing([slow, lucky, quick], "recommended", "", "USD"))).toEqual(["Quick Quinn", "Lucky Lee", "Slow Sam"]);
  });

  it("takes cancellations by the expert off, and sits a newcomer among established experts rather than below them all", () => {
    const reliable = recommendedScore(expert("A", { rating: 4.5, reviewCount: 10, medianAnswerMinutes: 600, answeredRequests: 10 }));
    const cancelling = recommendedScore(
      expert("B", { rating: 4.5, reviewCount: 10, medianAnswerMinutes: 600, answeredRequests: 10, cancelledByExpert: 5 }),
    );
    expect(cancelling).toBeLessThan(reliable);
    const missing = recommendedScore(
      expert("E", { rating: 4.5, reviewCount: 10, medianAnswerMinutes: 600, answeredRequests: 10, expertNoShows: 2, sessionsDue: 20 }),
    );
    expect(reliable - missing).toBeCloseTo(0.5);
    const newcomer = recommendedScore(expert("C"));
    const poor = recommendedScore(expert("D", { rating: 3.2, reviewCount: 12, medianAnswerMinutes: 2000, answeredRequests: 12 }));
    expect(newcomer).toBeGreaterThan(poor);
  });

  it("breaks ties by name, so the same listing comes back in the same order", () => {
    expect(names(orderListing([expert("Zoe Z"), expert("Amy A"), expert("Max M")], "recommended", "", "USD"))).toEqual([
      "Amy A",
      "Max M",
      "Zoe Z",
    ]);
  });
});

describe("the sorts", () => {
  const cheap = expert("Cheap Chris", { startingPrice: { cents: 4_000, currency: "USD" }, rating: 4.1, reviewCount: 3 });
  const dear = expert("Dear Dana", {
    startingPrice: { cents: 25_000, currency: "USD" },
    rating: 4.9,
    reviewCount: 30,
    nextAvailable: "2026-12-01T15:00:00.000Z",
  });
  const euro = expert("Euro Eve", { startingPrice: { cents: 1_000, currency: "EUR" }, nextAvailable: "2026-12-03T09:00:00.000Z" });
  const free = expert("Unpriced Uma", {
    startingPrice: null,
    offered: [],
    rating: 4.5,
    reviewCount: 2,
    nextAvailable: "2026-12-01T13:00:00.000Z",
  });
  const all = [dear, free, euro, cheap];

  it("rating: highest first, unrated last", () => {
    expect(names(orderListing(all, "rating", "", "USD"))).toEqual(["Dear Dana", "Unpriced Uma", "Cheap Chris", "Euro Eve"]);
  });

  it("price: lowest first within the asked currency, other currencies after it, never compared across currencies; no price last", () => {
    expect(names(orderListing(all, "price", "", "USD"))).toEqual(["Cheap Chris", "Dear Dana", "Euro Eve", "Unpriced Uma"]);
    expect(names(orderListing(all, "price", "", "EUR"))).toEqual(["Euro Eve", "Cheap Chris", "Dear Dana", "Unpriced Uma"]);
  });

  it("soonest: the earliest opening first, experts with none last", () => {
    expect(names(orderListing(all, "soonest", "", "USD"))).toEqual(["Unpriced Uma", "Dear Dana", "Euro Eve", "Cheap Chris"]);
  });

  it("relevance: a name starting with the search, then a word of the name, then the title or a tag", () => {
    const byTitle = expert("Ann Other", { title: "Brand strategist", rating: 5, reviewCount: 50 });
    const byWord = expert("Kim Branders");
    const byName = expert("Brandon Lee");
    expect(searchRelevance("brand", byName)).toBe(3);
    expect(searchRelevance("brand", byWord)).toBe(2);
    expect(searchRelevance("brand", byTitle)).toBe(1);
    expect(names(orderListing([byTitle, byWord, byName], "relevance", "brand", "USD"))).toEqual([
      "Brandon Lee",
      "Kim Branders",
      "Ann Other",
    ]);
    // Without a search, relevance is the recommended order.
    expect(names(orderListing([byWord, byTitle], "relevance", "", "USD"))).toEqual(["Ann Other", "Kim Branders"]);
  });
});

describe("the filters", () => {
  const shortCheap = expert("Short", { offered: [{ lengthMinutes: 30, priceCents: 3_000, currency: "USD" }] });
  const longDear = expert("Long", {
    offered: [
      { lengthMinutes: 90, priceCents: 30_000, currency: "USD" },
      { lengthMinutes: 30, priceCents: 9_000, currency: "GBP" },
    ],
    nextAvailable: "2026-12-07T11:00:00.000Z",
  });
  const none = expert("Nothing yet", { offered: [], startingPrice: null });
  const kept = (q: Record<string, string>, list = [shortCheap, longDear, none]) =>
    names(list.filter((c) => passesFilters(c, query(q), NOW)));

  it("without filters every listed expert stays, sessions or not", () => {
    expect(kept({})).toEqual(["Short", "Long", "Nothing yet"]);
  });

  it("a length keeps experts offering a session of that length", () => {
    expect(kept({ length_minutes: "90" })).toEqual(["Long"]);
    expect(kept({ length_minutes: "30" })).toEqual(["Short", "Long"]);
  });

  it("a price range keeps experts with a session priced within it in the asked currency, and one session must meet length and price together", () => {
    expect(kept({ max_price_cents: "10000" })).toEqual(["Short"]);
    expect(kept({ max_price_cents: "10000", currency: "GBP" })).toEqual(["Long"]);
    expect(kept({ min_price_cents: "20000", max_price_cents: "30000" })).toEqual(["Long"]);
    expect(kept({ length_minutes: "30", min_price_cents: "20000" })).toEqual([]);
  });

  it("available this week keeps experts with an opening within seven days of now", () => {
    expect(kept({ available: "this_week" })).toEqual(["Long"]);
    const nextWeek = { ...longDear, nextAvailable: "2026-12-08T12:00:01.000Z" };
    expect(kept({ available: "this_week" }, [nextWeek])).toEqual([]);
  });

  it("the opening shown is for the shortest session the filters keep", () => {
    expect(openingLength(longDear.offered, query({}))).toBe(30);
    expect(openingLength(longDear.offered, query({ currency: "USD", min_price_cents: "100" }))).toBe(90);
    expect(openingLength([], query({}))).toBeNull();
  });
});

describe("the query", () => {
  it("refuses an unknown sort, a reversed or non-numeric price range, a length not offered and another availability, each with its catalogue code", () => {
    const code = (q: Record<string, string>) => ExpertListQuery.safeParse(q).error?.issues[0]?.message;
    expect(code({ sort: "cheapest" })).toBe("listing_sort_invalid");
    expect(code({ min_price_cents: "5000", max_price_cents: "100" })).toBe("listing_price_range_invalid");
    expect(code({ max_price_cents: "12.50" })).toBe("listing_price_range_invalid");
    expect(code({ length_minutes: "45" })).toBe("listing_length_invalid");
    expect(code({ available: "today" })).toBe("listing_available_invalid");
  });
});
