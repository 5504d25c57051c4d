import { infiniteQueryOptions, keepPreviousData, queryOptions, useInfiniteQuery, type InfiniteData } from "@tanstack/react-query";
import { CACHE_MS } from "@booking/contracts";
import { api, type Page } from "../shared/api-client.ts";
import type { ExpertDetail, ExpertListItem, Review } from "../shared/api-types.ts";
import { listingQueryOf, listingRequestOf, type ListingChoices } from "./listing-choices.ts";

/**
 * The older reviews of a profile, a page at a time from `first` (the profile's Link header), fetched only once `wanted`:
 * most visitors read the newest and go on to book.
 */
export const olderReviewsQuery = (first: string, wanted: boolean) =>
  infiniteQueryOptions({
    queryKey: ["expert-reviews", first],
    queryFn: ({ pageParam, signal }) => api.getPage<Review[]>(pageParam, { signal }),
    initialPageParam: first,
    getNextPageParam: (last) => last.next,
    select: (data) => ({ reviews: data.pages.flatMap((page) => page.items), more: data.pages.at(-1)?.next != null }),
    enabled: wanted,
  });

/** The cards of the listing's pages loaded so far, in the listing's order, and whether more follow. */
export type LoadedExperts = { experts: ExpertListItem[]; more: boolean };

const loaded = (data: InfiniteData<Page<ExpertListItem[]>, string>): LoadedExperts => ({
  experts: data.pages.flatMap((page) => page.items),
  more: data.pages.at(-1)?.next != null,
});

/**
 * The listing for the creator's choices (issue 30.5), a page at a time (issue 34.5): the API's first
 * page, then the pages its `Link: rel="next"` header names, so every expert can be reached. Keyed by
 * the call's query; the trailing "pages" keeps it apart from the landing page's plain read of
 * `/experts` (a bare array). While other choices load, the cards shown stay until the answer comes.
 */
export function expertsQuery(choices: ListingChoices) {
  return infiniteQueryOptions({
    queryKey: ["experts", listingQueryOf(choices), "pages"],
    queryFn: ({ pageParam, signal }) => api.getPage<ExpertListItem[]>(pageParam, { signal }),
    initialPageParam: listingRequestOf(choices),
    getNextPageParam: (last) => last.next,
    select: loaded,
    staleTime: CACHE_MS.expertListFresh,
    gcTime: CACHE_MS.expertListKept,
    placeholderData: keepPreviousData,
  });
}

/** A profile with its newest reviews, and the path of the next page of older ones (null: it shows them all; issue 34.5). */
export type ExpertProfile = ExpertDetail & { reviewsNext: string | null };

export function expertDetailQuery(slug: string) {
  return queryOptions({
    queryKey: ["expert", slug],
    queryFn: async ({ signal }): Promise<ExpertProfile> => {
      try {
        const { items, next } = await api.getPage<ExpertDetail>(`/experts/${encodeURIComponent(slug)}`, { signal });
        return { ...items, reviewsNext: next };
      } catch (error) {
        if (!signal.aborted) console.error(`Could not load expert ${slug}`, error);
        throw error;
      }
    },
    staleTime: CACHE_MS.expertDetailPrefetchFresh,
    retry: false,
  });
}

export const useExperts = (choices: ListingChoices) => useInfiniteQuery(expertsQuery(choices));
