import { AVAILABLE_SOON_DAYS, type Currency, type ExpertListQuery, type ListingSort } from "@booking/contracts";

// The experts listing's filters and orders (issue 30.5), pure over what the read models say of each
// listed expert. The API reads the rows, works out each expert's next opening with the availability
// rules, and hands both here.

/** A published session as the listing reads it. */
export type OfferedSession = { lengthMinutes: number; priceCents: number; currency: Currency };

/** What the listing knows of an approved expert. */
export type ListingCandidate = {
  expertId: string;
  name: string;
  title: string;
  tags: readonly string[];
  offered: readonly OfferedSession[];
  startingPrice: { cents: number; currency: Currency } | null;
  rating: number | null;
  reviewCount: number;
  /** Median minutes from a paid request to the expert accepting it; null: none answered yet. */
  medianAnswerMinutes: number | null;
  answeredRequests: number;
  cancelledByExpert: number;
  /** Sessions the expert missed (settled no-show reports), among the sessions due to be held (issue 31.1). */
  expertNoShows: number;
  sessionsDue: number;
  /** The earliest bookable start for the sessions the filters keep; null: none in the booking window. */
  nextAvailable: string | null;
};

export type ListingFilters = Pick<ExpertListQuery, "min_price_cents" | "max_price_cents" | "currency" | "length_minutes" | "available">;

/** The sessions that satisfy the price and length filters together (one session must satisfy both). */
export function sessionsMatching(offered: readonly OfferedSession[], f: ListingFilters): OfferedSession[] {
  const priced = f.min_price_cents !== undefined || f.max_price_cents !== undefined;
  return offered.filter(
    (s) =>
      (f.length_minutes === undefined || s.lengthMinutes === f.length_minutes) &&
      (!priced ||
        (s.currency === f.currency &&
          s.priceCents >= (f.min_price_cents ?? 0) &&
          (f.max_price_cents === undefined || s.priceCents <= f.max_price_cents))),
  );
}

/** The session length whose openings the listing shows: the shortest kept, since a shorter session fits wherever a longer one does. */
export function openingLength(offered: readonly OfferedSession[], f: ListingFilters): number | null {
  const lengths = sessionsMatching(offered, f).map((s) => s.lengthMinutes);
  return lengths.length === 0 ? null : Math.min(...lengths);
}

/** Rule: "available this week" is a bookable start within AVAILABLE_SOON_DAYS of now. */
export const availableSoon = (nextAvailable: string | null, now: string): boolean =>
  nextAvailable !== null && Date.parse(nextAvailable) <= Date.parse(now) + AVAILABLE_SOON_DAYS * 86_400_000;

/** Rule: with a price or length asked, an expert is listed when they offer a session it keeps; with "this week", when they have an opening in it. */
export function passesFilters(c: ListingCandidate, f: ListingFilters, now: string): boolean {
  const narrowed = f.length_minutes !== undefined || f.min_price_cents !== undefined || f.max_price_cents !== undefined;
  if (narrowed && sessionsMatching(c.offered, f).length === 0) return false;
  return f.available !== "this_week" || availableSoon(c.nextAvailable, now);
}

/** A new expert's rating counts as this until reviews say otherwise, weighted as this many reviews. */
const PRIOR_RATING = 4;
const PRIOR_WEIGHT = 3;

/**
 * Rule: the recommended order favours well-rated, responsive, reliable experts. The rating is
 * averaged with a prior (one 5-star review does not beat forty 4.8s); answering paid requests
 * within 3 hours adds half a star, within a day a quarter, slower takes a quarter off; each
 * cancellation per answered request takes up to half a star off, and missed sessions up to a
 * whole star (a tenth of sessions missed takes half a star). A new expert with no history sits at
 * the prior, among the established ones rather than below them all.
 */
export function recommendedScore(
  c: Pick<
    ListingCandidate,
    "rating" | "reviewCount" | "medianAnswerMinutes" | "answeredRequests" | "cancelledByExpert" | "expertNoShows" | "sessionsDue"
  >,
): number {
  const rating = (PRIOR_RATING * PRIOR_WEIGHT + (c.rating ?? 0) * c.reviewCount) / (PRIOR_WEIGHT + c.reviewCount);
  const m = c.medianAnswerMinutes;
  const responsiveness = m === null ? 0 : m <= 180 ? 0.5 : m <= 1440 ? 0.25 : -0.25;
  const cancelling = c.cancelledByExpert === 0 ? 0 : 0.5 * Math.min(1, c.cancelledByExpert / Math.max(1, c.answeredRequests));
  const missing = c.expertNoShows === 0 ? 0 : Math.min(1, (5 * c.expertNoShows) / Math.max(1, c.sessionsDue));
  return rating + responsiveness - cancelling - missing;
}

/**
 * How well a search matches (the listing holds only matches): 3 a name starting with it, 2 a word of
 * the name starting with it, 1 the title or a tag holding it, 0 otherwise (a name holding it mid-word).
 */
export function searchRelevance(term: string, c: Pick<ListingCandidate, "name" | "title" | "tags">): number {
  const t = term.trim().toLowerCase();
  if (!t) return 0;
  const name = c.name.toLowerCase();
  if (name.startsWith(t)) return 3;
  if (name.split(/\s+/).some((w) => w.startsWith(t))) return 2;
  return c.title.toLowerCase().includes(t) || c.tags.some((g) => g.toLowerCase().includes(t)) ? 1 : 0;
}

type Keyed = { c: ListingCandidate; score: number; relevance: number };

const desc = (a: number | null, b: number | null) => (a === b ? 0 : a === null ? 1 : b === null ? -1 : b - a);
const asc = (a: number | null, b: number | null) => (a === b ? 0 : a === null ? 1 : b === null ? -1 : a - b);
const instant = (t: string | null) => (t === null ? null : Date.parse(t));

/** Rule: prices are compared only within a currency: the asked currency's first, the rest by currency, experts with no price last. */
function byPrice(currency: Currency) {
  return (a: ListingCandidate, b: ListingCandidate): number => {
    const pa = a.startingPrice;
    const pb = b.startingPrice;
    if (!pa || !pb) return pa === pb ? 0 : pa ? -1 : 1;
    if (pa.currency !== pb.currency) {
      if (pa.currency === currency || pb.currency === currency) return pa.currency === currency ? -1 : 1;
      return pa.currency.localeCompare(pb.currency);
    }
    return pa.cents - pb.cents;
  };
}

/** The listing in the order asked; ties fall to the recommended order, then the name, so the order is the same every time. */
export function orderListing(
  candidates: readonly ListingCandidate[],
  sort: ListingSort,
  search: string,
  currency: Currency,
): ListingCandidate[] {
  const keyed: Keyed[] = candidates.map((c) => ({ c, score: recommendedScore(c), relevance: searchRelevance(search, c) }));
  const first: Record<ListingSort, (a: Keyed, b: Keyed) => number> = {
    recommended: () => 0,
    relevance: (a, b) => b.relevance - a.relevance,
    rating: (a, b) => desc(a.c.rating, b.c.rating) || b.c.reviewCount - a.c.reviewCount,
    price: (a, b) => byPrice(currency)(a.c, b.c),
    soonest: (a, b) => asc(instant(a.c.nextAvailable), instant(b.c.nextAvailable)),
  };
  return keyed
    .sort((a, b) => first[sort](a, b) || b.score - a.score || a.c.name.localeCompare(b.c.name) || a.c.expertId.localeCompare(b.c.expertId))
    .map((k) => k.c);
}
