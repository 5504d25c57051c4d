import { queryOptions } from "@tanstack/react-query";
import { api, ApiError } from "../shared/api-client.ts";
import type { SessionNotes } from "../shared/api-types.ts";
import { BOOKINGS_KEY } from "../shared/query-client.ts";

/** A booking's notes, or null while the expert has written none. */
export const notesQuery = (bookingId: string) =>
  queryOptions({
    queryKey: [...BOOKINGS_KEY, "notes", bookingId],
    queryFn: async ({ signal }) => {
      try {
        return await api.get<SessionNotes>(`/bookings/${bookingId}/notes`, { signal });
      } catch (error) {
        if (error instanceof ApiError && error.code === "not_found") return null;
        throw error;
      }
    },
    staleTime: 0,
    retry: false,
  });
