import { z } from "zod";
import { SESSION_LENGTHS_MINUTES } from "./constants.ts";
import { DEFAULT_CURRENCY } from "./currencies.ts";
import { Currency } from "./money.ts";
import { pageQueryFields } from "./page-query.ts";

// The experts listing's sort and filters (issue 30.5). The order rules themselves are pure functions in
// engine/src/expert/listing-order.ts; these are the words a query and a page use for them.

/**
 * recommended: responsive, well-rated experts first (the default); relevance: how well the search matches
 * (recommended without a search); rating: highest first; price: lowest starting price first; soonest: the
 * earliest bookable start first.
 */
export const LISTING_SORTS = ["recommended", "relevance", "rating", "price", "soonest"] as const;
export const ListingSort = z.enum(LISTING_SORTS, { error: "listing_sort_invalid" });
export type ListingSort = z.infer<typeof ListingSort>;

export const LISTING_SORT_LABELS: Record<ListingSort, string> = {
  recommended: "Recommended",
  relevance: "Best match",
  rating: "Highest rated",
  price: "Lowest price",
  soonest: "Soonest available",
};

/** "Available this week": a bookable start within this many days from now (a rolling week, the same in every time zone). */
export const AVAILABLE_SOON_DAYS = 7;

/** A price bound in minor units of `currency` (query strings are text). */
const PriceBound = z
  .string()
  .regex(/^\d{1,9}$/, { error: "listing_price_range_invalid" })
  .transform(Number)
  .optional();

const listingFields = {
  search: z.string().max(200).optional().default(""),
  sort: ListingSort.optional().default("recommended"),
  min_price_cents: PriceBound,
  max_price_cents: PriceBound,
  currency: Currency.optional().default(DEFAULT_CURRENCY),
  length_minutes: z
    .enum(SESSION_LENGTHS_MINUTES.map(String) as [string, ...string[]], { error: "listing_length_invalid" })
    .transform(Number)
    .optional(),
  available: z.enum(["this_week"], { error: "listing_available_invalid" }).optional(),
};

/** Experts per page of the listing when the client does not say: the spec's plain call still gets every expert of a small marketplace at once. */
export const LISTING_PAGE_DEFAULT = 500;

/**
 * A page of the listing (issue 34.5): `before` is the cursor a `Link: <…>; rel="next"` header gave, which names the last expert of the
 * page before (keyset on the listing's own order, not a count), and `limit` the experts per page. Not part of what the listing is.
 */
export const listingPageFields = pageQueryFields({
  cursorError: "listing_cursor_invalid",
  sizeError: "listing_page_size_invalid",
  max: LISTING_PAGE_DEFAULT,
  defaultSize: LISTING_PAGE_DEFAULT,
  items: "Experts",
  after: "the experts after the last one of that page",
  first: "the first page",
});
const rangeInOrder = (q: { min_price_cents?: number; max_price_cents?: number }) =>
  q.min_price_cents === undefined || q.max_price_cents === undefined || q.min_price_cents <= q.max_price_cents;

/**
 * GET /experts/search (and the listing's parameters of GET /experts). Price bounds are in minor units and match an expert
 * who offers a published session in `currency` priced within them (and of `length_minutes`, when that is given too: one
 * session must satisfy both); `available=this_week` keeps experts with a bookable start in the coming week.
 */
export const ExpertListQuery = z
  .strictObject({ ...listingFields, ...listingPageFields })
  .refine(rangeInOrder, { error: "listing_price_range_invalid" });
export type ExpertListQuery = z.infer<typeof ExpertListQuery>;
/** GET /experts: the same, lenient with parameters it does not know, as the spec's plain listing call always was. */
export const ExpertListingQuery = z
  .object({ ...listingFields, ...listingPageFields })
  .refine(rangeInOrder, { error: "listing_price_range_invalid" });
/** The fields that say which experts the listing holds and in what order (the page's fields aside): its cache is keyed by these. */
export const LISTING_FIELDS = Object.keys(listingFields) as (keyof typeof listingFields)[];
