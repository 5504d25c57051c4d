import { queryOptions, useInfiniteQuery, useQuery } from "@tanstack/react-query";
import { CACHE_MS } from "@booking/contracts";
import { api } from "../shared/api-client.ts";
import type { ExpertProfile, Schedule, Session } from "../shared/api-types.ts";
import { bookingPagesQuery } from "../bookings/booking-pages.ts";

export const myProfileQuery = () =>
  queryOptions({ queryKey: ["expert-me"], queryFn: ({ signal }) => api.get<ExpertProfile>("/experts/me", { signal }), staleTime: 0 });

export const expertSessionsQuery = (expertId: string) =>
  queryOptions({
    queryKey: ["sessions", expertId],
    queryFn: ({ signal }) => api.get<Session[]>(`/experts/${expertId}/sessions`, { signal }),
    staleTime: CACHE_MS.sessions,
  });

export const scheduleQuery = (expertId: string) =>
  queryOptions({
    queryKey: ["schedule", expertId],
    queryFn: ({ signal }) => api.get<Schedule>(`/experts/${expertId}/schedule`, { signal }),
    staleTime: 0,
  });

export const useMyProfile = () => useQuery(myProfileQuery());
export const useExpertSessions = (expertId: string | null) => useQuery({ ...expertSessionsQuery(expertId ?? ""), enabled: !!expertId });
export const useSchedule = (expertId: string | null) => useQuery({ ...scheduleQuery(expertId ?? ""), enabled: !!expertId });
/** An expert's bookings, the pages loaded so far: `who` is "me", or an expert's id when an admin looks. */
export const useExpertBookings = (who = "me") => useInfiniteQuery(bookingPagesQuery("expert", who));
