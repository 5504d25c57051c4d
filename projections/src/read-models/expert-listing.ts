import type { Currency, ExpertListItem } from "@booking/contracts";
import type { Queryable } from "./bookings-queries.ts";
import { expertFromPg, expertSelectList, type ExpertRow } from "./experts.ts";
import { expertRatingColumns, expertRatingFromPg } from "./reviews.ts";

// The experts listing's read (issue 30.5): approved, published experts matching a search, each with the
// published sessions they offer, their starting price and their rating. Which are kept and in what order is
// the engine's listing-order; the API adds each expert's standing and next opening.

/**
 * An expert with the lowest price of their published sessions (null: none yet), in cents, in the
 * currency most of those sessions are priced in (a price is never compared with one in another
 * currency), every published session's length and price, and their rating (the reviews read model's).
 */
export type ListedExpert = ExpertRow & {
  starting_price_cents: number | null;
  starting_price_currency: Currency | null;
  offered: { length_minutes: number; price_cents: number; currency: Currency }[];
  rating: number | null;
  review_count: number;
};

const LISTED = `SELECT ${expertSelectList}, sp.starting_price_cents, sp.starting_price_currency, so.offered,
  ${expertRatingColumns}
  FROM experts e LEFT JOIN LATERAL (
    SELECT min(s.price_cents) AS starting_price_cents, s.currency AS starting_price_currency FROM sessions s
    WHERE s.expert_id = e.expert_id AND s.status = 'published' AND NOT s.deleted
    GROUP BY s.currency ORDER BY count(*) DESC, s.currency LIMIT 1
  ) sp ON true
  LEFT JOIN LATERAL (
    SELECT coalesce(jsonb_agg(jsonb_build_object('length_minutes', s.length_minutes, 'price_cents', s.price_cents, 'currency', s.currency)), '[]') AS offered
    FROM sessions s WHERE s.expert_id = e.expert_id AND s.status = 'published' AND NOT s.deleted
  ) so ON true`;

const listed = (raw: Record<string, unknown>): ListedExpert => ({
  ...expertFromPg(raw),
  starting_price_cents:
    raw.starting_price_cents === null || raw.starting_price_cents === undefined ? null : Number(raw.starting_price_cents),
  starting_price_currency: (raw.starting_price_currency as Currency | null | undefined) ?? null,
  offered: ((raw.offered as ListedExpert["offered"] | null) ?? []).map((o) => ({ ...o, price_cents: Number(o.price_cents) })),
  ...expertRatingFromPg(raw),
});

/**
 * The read's order, which the experts_listing index hands over as it is (the listing's own order is the engine's). No LIMIT
 * (issue 34.5): the engine's orders (recommended, price, soonest) rank every match, so a cut here would drop experts from
 * the top of the listing without a word; the API pages the ranked listing instead.
 */
const LISTING_ORDER = "ORDER BY e.verified DESC, e.last_name, e.first_name, e.expert_id";

/** Published experts, optionally matching a search on name, title or tags (the text is a parameter, its wildcards escaped). */
export async function listExperts(db: Queryable, search = ""): Promise<ListedExpert[]> {
  const term = search.trim();
  // Rule: only experts our team approved are listed (issue 30); `verified` is approved and not suspended.
  if (!term) return (await db.query(`${LISTED} WHERE e.published AND e.verified ${LISTING_ORDER}`)).rows.map(listed);
  const pattern = `%${term.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  const { rows } = await db.query(
    `${LISTED} WHERE e.published AND e.verified AND (
       (e.first_name || ' ' || e.last_name) ILIKE $1 OR e.title ILIKE $1 OR EXISTS (SELECT 1 FROM unnest(e.tags) t WHERE t ILIKE $1)
     ) ${LISTING_ORDER}`,
    [pattern],
  );
  return rows.map(listed);
}

/** The experts listing's card (contracts' ExpertListItem): whole dollars, the visible reviews' average and count, the next opening. */
export function expertListItem(
  r: ListedExpert,
  extra: Pick<ExpertListItem, "next_available" | "median_answer_minutes"> = { next_available: null, median_answer_minutes: null },
): ExpertListItem {
  return {
    id: r.expert_id,
    user_id: r.user_id,
    slug: r.slug,
    name: `${r.first_name} ${r.last_name}`,
    role: r.title,
    startingprice: r.starting_price_cents === null ? null : Math.round(r.starting_price_cents / 100),
    starting_price_cents: r.starting_price_cents,
    starting_price_currency: r.starting_price_cents === null ? null : r.starting_price_currency,
    rating: r.rating,
    review_count: r.review_count,
    image: r.profile_image,
    verified: r.verified,
    ...extra,
  };
}
