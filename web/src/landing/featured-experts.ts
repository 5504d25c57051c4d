import { useEffect, useState } from "react";
import { useQuery } from "@tanstack/react-query";
import type { ExpertListItem } from "../shared/api-types.ts";
import { apiClient } from "../shared/auth.tsx";
import type { moneyText } from "../shared/money.ts";
import { SAMPLE_EXPERTS } from "./landing-content.ts";

/** A hero card: a real expert (with a profile to open) or one of the sample cards. */
export type FeaturedExpert = {
  key: string;
  /** The profile's slug; null for a sample card, which leads nowhere. */
  slug: string | null;
  name: string;
  title: string;
  tags: readonly string[];
  image: string | null;
  verified: boolean;
  colors: readonly [string, string];
};

const FEATURED_COUNT = 3;

const sampleCards: FeaturedExpert[] = SAMPLE_EXPERTS.map((e) => ({
  key: e.name,
  slug: null,
  name: e.name,
  title: e.title,
  tags: e.tags,
  image: null,
  verified: true,
  colors: e.colors,
}));

/** How a price is written (shared/money.ts), loaded once the listing has come. */
type PriceText = typeof moneyText;

/** What a card says under the title: the listing's starting price and rating. */
function listingTags(e: ExpertListItem, moneyText: PriceText): string[] {
  const tags: string[] = [];
  if (e.starting_price_cents !== null)
    tags.push(`From ${moneyText(e.starting_price_cents, e.starting_price_currency ?? undefined, { short: true })}`);
  tags.push(e.rating === null ? "New" : `★ ${e.rating.toFixed(1)} (${e.review_count})`);
  return tags;
}

/** The hero's experts: the first three verified ones of the public listing (published ones only, in its order); none while fewer exist. */
function heroExperts(listing: readonly ExpertListItem[] | undefined): ExpertListItem[] {
  const verified = (listing ?? []).filter((e) => e.verified);
  return verified.length < FEATURED_COUNT ? [] : verified.slice(0, FEATURED_COUNT);
}

/** The hero's cards for the listing's experts (heroExperts), each with its price and rating. */
export function featuredExperts(experts: readonly ExpertListItem[], moneyText: PriceText): FeaturedExpert[] {
  return experts.map((e, i) => ({
    key: e.id,
    slug: e.slug,
    name: e.name,
    title: e.role,
    tags: listingTags(e, moneyText),
    image: e.image,
    verified: true,
    colors: sampleCards[i]!.colors,
  }));
}

/**
 * The hero's cards: three experts of the listing, or the sample cards while fewer than three
 * exist. `settled` once the listing answered or failed and the prices can be written: until then
 * the cards keep their place unseen.
 */
export function useFeaturedExperts(): { experts: FeaturedExpert[]; settled: boolean } {
  // The experts page's query key, so opening the listing next reuses the answer; the client is
  // loaded after the page has (as the session check is), so the landing page's first load stays small.
  const listing = useQuery({
    queryKey: ["experts", ""],
    queryFn: async ({ signal }) => (await apiClient()).api.get<ExpertListItem[]>("/experts", { signal }),
  });
  const chosen = heroExperts(listing.data);
  const needsPrices = chosen.length > 0;
  // The money writer (with the locale and date helpers it brings from the contracts) is loaded only
  // for real cards, after the listing has come: the first load need not carry it (issue 19).
  const [priceText, setPriceText] = useState<{ write: PriceText } | null>(null);
  useEffect(() => {
    if (!needsPrices || priceText) return;
    let current = true;
    void import("../shared/money.ts").then(({ moneyText }) => current && setPriceText({ write: moneyText }));
    return () => {
      current = false;
    };
  }, [needsPrices, priceText]);
  if (!needsPrices) return { experts: sampleCards, settled: !listing.isPending };
  if (!priceText) return { experts: sampleCards, settled: false };
  return { experts: featuredExperts(chosen, priceText.write), settled: true };
}
