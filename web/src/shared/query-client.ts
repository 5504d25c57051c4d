import { QueryClient } from "@tanstack/react-query";
import { CACHE_MS } from "@booking/contracts";

/** Global cache policy of spec section 9: stale after 5 minutes, no refetch on window focus. */
export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
        staleTime: CACHE_MS.globalStale,
        refetchOnWindowFocus: false,
        retry: (count, error) => count < 1 && !(error instanceof Error && "status" in error && (error as { status: number }).status >= 400),
      },
      mutations: { retry: false },
    },
  });
}

/** Every booking read lives under this key, so one invalidation refreshes them all (realtime, writes). */
export const BOOKINGS_KEY = ["bookings"] as const;

/** Every conversation read (a booking's thread, the unread counts) lives under this key: live changes refresh them (issue 31.3). */
export const CONVERSATIONS_KEY = ["conversations"] as const;
