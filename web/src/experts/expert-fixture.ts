import type { ExpertDetail, ExpertListItem } from "../shared/api-types.ts";

// For the experts screens' tests only: Maya Lind as the API replies her (contracts' ExpertListItem and
// ExpertDetail), changed by `overrides`. The one place those tests name every field, so a field added
// to a reply is added here once (as web/test/booking-fixture.ts does for bookings).

/** Maya's card in the listing: approved, $150 from, no rating, no next start. */
export function anExpertCard(overrides: Partial<ExpertListItem> = {}): ExpertListItem {
  return {
    id: "e1",
    user_id: "e1",
    slug: "maya-lind-e1",
    name: "Maya Lind",
    role: "Brand partnerships advisor",
    startingprice: 150,
    starting_price_cents: 15_000,
    starting_price_currency: "USD",
    rating: null,
    review_count: 0,
    image: null,
    verified: true,
    next_available: null,
    median_answer_minutes: null,
    ...overrides,
  };
}

/** Maya's profile: published, approved, no sessions and no reviews. */
export function anExpertProfile(overrides: Partial<ExpertDetail> = {}): ExpertDetail {
  return {
    id: "e1",
    user_id: "e1",
    slug: "maya-lind-e1",
    first_name: "Maya",
    last_name: "Lind",
    title: "Brand partnerships advisor",
    bio: "Deals.",
    tags: [],
    profile_image: null,
    published: true,
    verified: true,
    sessions: [],
    reviews: [],
    prev_clients: [],
    ...overrides,
  };
}

/** A reply's `Link` header naming the next page at `path` (under /api/v1), as the API sends it (issue 34.5). */
export const linkTo = (path: string) => ({ link: `</api/v1${path}>; rel="next"` });
