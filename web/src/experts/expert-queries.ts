import { keepPreviousData, queryOptions, useQuery } from "@tanstack/react-query";
import { CACHE_MS } from "@booking/contracts";
import { api } from "../shared/api-client.ts";
import type { ExpertDetail, ExpertListItem } from "../shared/api-types.ts";
import { listingQueryOf, listingRequestOf, type ListingChoices } from "./listing-choices.ts";

/**
 * The listing for the creator's choices (issue 30.5). Keyed by the call's query, "" for the plain listing
 * (the landing page's hero reads that one). While other choices load, the cards shown stay until the answer comes.
 */
export function expertsQuery(choices: ListingChoices) {
  return queryOptions({
    queryKey: ["experts", listingQueryOf(choices)],
    queryFn: ({ signal }) => api.get<ExpertListItem[]>(listingRequestOf(choices), { signal }),
    staleTime: CACHE_MS.expertListFresh,
    gcTime: CACHE_MS.expertListKept,
    placeholderData: keepPreviousData,
  });
}

export function expertDetailQuery(slug: string) {
  return queryOptions({
    queryKey: ["expert", slug],
    queryFn: async ({ signal }) => {
      try {
        return await api.get<ExpertDetail>(`/experts/${encodeURIComponent(slug)}`, { signal });
      } catch (error) {
        if (!signal.aborted) console.error(`Could not load expert ${slug}`, error);
        throw error;
      }
    },
    staleTime: CACHE_MS.expertDetailPrefetchFresh,
    retry: false,
  });
}

export const useExperts = (choices: ListingChoices) => useQuery(expertsQuery(choices));
