import { useState } from "react";
import { useQueryClient } from "@tanstack/react-query";
import { errorMessage } from "../shared/api-client.ts";
import { BOOKINGS_KEY } from "../shared/query-client.ts";

/**
 * One change to a booking at a time: `run` sends it, then refreshes every booking list and detail
 * and the times on offer (a move frees one time and holds another); a refusal is kept in the
 * catalogue's words. Resolves to what the change answered, or null when it was refused.
 */
export function useBookingAction() {
  const queryClient = useQueryClient();
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const run = async <T>(work: () => Promise<T>): Promise<{ value: T } | null> => {
    setBusy(true);
    setFailure(null);
    try {
      const value = await work();
      void queryClient.invalidateQueries({ queryKey: BOOKINGS_KEY });
      void queryClient.invalidateQueries({ queryKey: ["availability"] });
      void queryClient.invalidateQueries({ queryKey: ["schedule"] });
      return { value };
    } catch (error) {
      setFailure(errorMessage(error));
      return null;
    } finally {
      setBusy(false);
    }
  };
  return { busy, failure, setFailure, run };
}
