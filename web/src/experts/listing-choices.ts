import {
  CURRENCIES,
  DEFAULT_CURRENCY,
  LISTING_SORTS,
  SESSION_LENGTHS_MINUTES,
  type Currency,
  type ListingSort,
  type SessionLengthMinutes,
} from "@booking/contracts";
import { centsOfTyped } from "../shared/money.ts";

// What a creator chose on the experts listing (issue 30.5): the search, the sort and the filters. The page
// keeps them in its address (a shared link and Back show the same listing) and asks GET /experts or
// GET /experts/search with the ones that differ from the defaults, so the plain listing stays `/experts`
// and a search alone stays `/experts/search?search=<term>`.

export type ListingChoices = {
  search: string;
  sort: ListingSort;
  /** Only experts with a published session of this length; null: any length. */
  lengthMinutes: SessionLengthMinutes | null;
  /** The price range as typed, in whole units of `currency`; "" leaves that end open. */
  minPrice: string;
  maxPrice: string;
  currency: Currency;
  /** Only experts with a bookable start in the coming week. */
  thisWeek: boolean;
};

export const NO_CHOICES: ListingChoices = {
  search: "",
  sort: "recommended",
  lengthMinutes: null,
  minPrice: "",
  maxPrice: "",
  currency: DEFAULT_CURRENCY,
  thisWeek: false,
};

/** The page address's names for the choices (the price in whole units, as the creator typed it). */
const PAGE = {
  search: "search",
  sort: "sort",
  length: "length",
  minPrice: "min_price",
  maxPrice: "max_price",
  currency: "currency",
  available: "available",
} as const;

const oneOf = <T extends string | number>(options: readonly T[], value: unknown): T | undefined => options.find((o) => String(o) === value);

/** The choices a page address holds; anything it does not recognise is left at the default. */
export function choicesOfPage(params: URLSearchParams): ListingChoices {
  return {
    search: params.get(PAGE.search) ?? "",
    sort: oneOf(LISTING_SORTS, params.get(PAGE.sort)) ?? NO_CHOICES.sort,
    lengthMinutes: oneOf(SESSION_LENGTHS_MINUTES, params.get(PAGE.length)) ?? null,
    minPrice: params.get(PAGE.minPrice) ?? "",
    maxPrice: params.get(PAGE.maxPrice) ?? "",
    currency: oneOf(CURRENCIES, params.get(PAGE.currency)) ?? NO_CHOICES.currency,
    thisWeek: params.get(PAGE.available) === "this_week",
  };
}

/** The page address's query for the choices: only those that differ from the defaults. */
export function pageParamsOf(c: ListingChoices): URLSearchParams {
  const params = new URLSearchParams();
  if (c.search) params.set(PAGE.search, c.search);
  if (c.sort !== NO_CHOICES.sort) params.set(PAGE.sort, c.sort);
  if (c.lengthMinutes !== null) params.set(PAGE.length, String(c.lengthMinutes));
  if (c.minPrice.trim()) params.set(PAGE.minPrice, c.minPrice.trim());
  if (c.maxPrice.trim()) params.set(PAGE.maxPrice, c.maxPrice.trim());
  if (c.currency !== NO_CHOICES.currency) params.set(PAGE.currency, c.currency);
  if (c.thisWeek) params.set(PAGE.available, "this_week");
  return params;
}

/** Whether any filter narrows the listing (the search and the order do not count). */
export const filtersSet = (c: ListingChoices): boolean =>
  c.lengthMinutes !== null || c.minPrice.trim() !== "" || c.maxPrice.trim() !== "" || c.currency !== NO_CHOICES.currency || c.thisWeek;

/** The same choices with every filter back to its default: the search and the order stay. */
export const withoutFilters = (c: ListingChoices): ListingChoices => ({ ...NO_CHOICES, search: c.search, sort: c.sort });

/** A typed price bound in minor units, as the API reads it; a bound that is not a number is left out. */
const boundOf = (typed: string, currency: Currency): string | null => {
  const cents = centsOfTyped(typed.trim(), currency);
  return cents === null ? null : String(cents);
};

/**
 * The API's query for the choices (ExpertListQuery), only the fields that differ from its defaults, in a
 * fixed order: "" for the plain listing. The search is trimmed, as the API trims it.
 */
export function listingQueryOf(c: ListingChoices): string {
  const fields: [string, string | null][] = [
    ["search", c.search.trim() || null],
    ["sort", c.sort === NO_CHOICES.sort ? null : c.sort],
    ["min_price_cents", boundOf(c.minPrice, c.currency)],
    ["max_price_cents", boundOf(c.maxPrice, c.currency)],
    ["currency", c.currency === NO_CHOICES.currency ? null : c.currency],
    ["length_minutes", c.lengthMinutes === null ? null : String(c.lengthMinutes)],
    ["available", c.thisWeek ? "this_week" : null],
  ];
  return fields
    .filter((f): f is [string, string] => f[1] !== null)
    .map(([name, value]) => `${name}=${encodeURIComponent(value)}`)
    .join("&");
}

/** The call that lists the experts for the choices: `/experts/search?…` with a search, else `/experts` (with its query, if any). */
export function listingRequestOf(c: ListingChoices): string {
  const query = listingQueryOf(c);
  if (c.search.trim()) return `/experts/search?${query}`;
  return query ? `/experts?${query}` : "/experts";
}
