import { infiniteQueryOptions, type InfiniteData } from "@tanstack/react-query";
import { api, type Page } from "../shared/api-client.ts";
import type { Booking } from "../shared/api-types.ts";
import { BOOKINGS_KEY } from "../shared/query-client.ts";

// A person's bookings as the dashboards read them (issue 34.5): the API sends them newest first, a
// page at a time, so every upcoming booking is on the first page and older history follows on
// request. Everything a dashboard derives (sections, counts, sums) reads the pages loaded so far.

/** The bookings of the pages loaded so far, and how many pages that is. */
export type LoadedBookings = { bookings: Booking[]; pages: number };

const loaded = (data: InfiniteData<Page<Booking[]>, string>): LoadedBookings => ({
  bookings: data.pages.flatMap((page) => page.items),
  pages: data.pages.length,
});

/**
 * The pages of `/bookings/{side}/{who}`, `who` "me" or a user's id when an admin looks. Keyed under
 * the bookings key, so every write's invalidation refetches the pages loaded; the trailing "pages"
 * keeps the entry apart from the booking wizard's plain read of `/bookings/creator/me`, whose cached
 * data is a bare array.
 */
export const bookingPagesQuery = (side: "creator" | "expert", who = "me") =>
  infiniteQueryOptions({
    queryKey: [...BOOKINGS_KEY, side, who, "pages"],
    queryFn: ({ pageParam, signal }) => api.getPage<Booking[]>(pageParam, { signal }),
    initialPageParam: `/bookings/${side}/${encodeURIComponent(who)}`,
    getNextPageParam: (last) => last.next,
    select: loaded,
    staleTime: 0,
  });
