import { queryOptions, useQuery } from "@tanstack/react-query";
import type { ApplicationReply, ExpertStandingReply } from "@booking/contracts";
import { api } from "../shared/api-client.ts";

// The signed-in expert's application (issue 30) and the standards they keep: /experts/me only.

export const APPLICATION_KEY = ["expert-application"] as const;

export const applicationQuery = () =>
  queryOptions({
    queryKey: APPLICATION_KEY,
    queryFn: ({ signal }) => api.get<ApplicationReply>("/experts/me/application", { signal }),
    staleTime: 0,
  });

export const standingQuery = () =>
  queryOptions({
    queryKey: ["expert-standing"],
    queryFn: ({ signal }) => api.get<ExpertStandingReply>("/experts/me/standing", { signal }),
    staleTime: 0,
  });

export const useApplication = () => useQuery(applicationQuery());
export const useStanding = () => useQuery(standingQuery());
