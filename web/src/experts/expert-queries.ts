import { queryOptions, useQuery } from "@tanstack/react-query";
import { CACHE_MS } from "@booking/contracts";
import { api } from "../shared/api-client.ts";
import type { ExpertDetail, ExpertListItem } from "../shared/api-types.ts";

export function expertsQuery(search: string) {
  const term = search.trim();
  return queryOptions({
    queryKey: ["experts", term],
    queryFn: ({ signal }) =>
      term
        ? api.get<ExpertListItem[]>(`/experts/search?search=${encodeURIComponent(term)}`, { signal })
        : api.get<ExpertListItem[]>("/experts", { signal }),
    staleTime: CACHE_MS.expertListFresh,
    gcTime: CACHE_MS.expertListKept,
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

export const useExperts = (search: string) => useQuery(expertsQuery(search));
