import { useQuery } from "@tanstack/react-query";
import type { ExpertListItem } from "../shared/api-types.ts";
import { apiClient } from "../shared/auth.tsx";
import { moneyText } from "../shared/money.ts";
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

/** What a card says under the title: the listing's starting price and rating. */
function listingTags(e: ExpertListItem): string[] {
  const tags: string[] = [];
  if (e.starting_price_cents !== null)
    tags.push(`From ${moneyText(e.starting_price_cents, e.starting_price_currency ?? undefined, { short: true })}`);
  tags.push(e.rating === null ? "New" : `★ ${e.rating.toFixed(1)} (${e.review_count})`);
  return tags;
}

/**
 * The hero's cards: the first three verified experts of the public listing (published ones only,
 * in the listing's order), or the sample cards while fewer than three exist.
 */
export function featuredExperts(listing: readonly ExpertListItem[] | undefined): FeaturedExpert[] {
  const verified = (listing ?? []).filter((e) => e.verified);
  if (verified.length < FEATURED_COUNT) return sampleCards;
  return verified.slice(0, FEATURED_COUNT).map((e, i) => ({
    key: e.id,
    slug: e.slug,
    name: e.name,
    title: e.role,
    tags: listingTags(e),
    image: e.image,
    verified: true,
    colors: sampleCards[i]!.colors,
  }));
}

/** `settled` once the listing answered or failed: until then the cards keep their place unseen. */
export function useFeaturedExperts(): { experts: FeaturedExpert[]; settled: boolean } {
  // The experts page's query key, so opening the listing next reuses the answer; the client is
  // loaded after the page has (as the session check is), so the landing page's first load stays small.
  const listing = useQuery({
    queryKey: ["experts", ""],
    queryFn: async ({ signal }) => (await apiClient()).api.get<ExpertListItem[]>("/experts", { signal }),
  });
  return { experts: featuredExperts(listing.data), settled: !listing.isPending };
}
