import { useEffect } from "react";
import { useQueryClient } from "@tanstack/react-query";
import { useAuth } from "./auth.tsx";
import type * as ApiClient from "./api-client.ts";
import { BOOKINGS_KEY, CONVERSATIONS_KEY } from "./query-client.ts";

// The server pushes the signed-in user's booking changes over Server-Sent Events; each one
// invalidates the cached bookings (and the times they hold), so lists update without a reload.
// A change to a booking's conversation (issue 31.3) refreshes the threads and the unread counts.

/** Conversation changes that leave the booking as it was: the thread and counts are refreshed, not the bookings. */
const CONVERSATION_ONLY = new Set(["ConversationRead", "ConversationMuted"]);

/** The change's type (its last event's), or "" when the data says none. */
export function changeTypeOf(data: unknown): string {
  if (typeof data !== "string") return "";
  try {
    const type: unknown = (JSON.parse(data) as { type?: unknown } | null)?.type;
    return typeof type === "string" ? type : "";
  } catch {
    return "";
  }
}

export function BookingUpdates() {
  const { status, user } = useAuth();
  const queryClient = useQueryClient();
  const userId = status === "authenticated" ? user?.id : undefined;

  useEffect(() => {
    if (!userId || typeof EventSource === "undefined") return;
    let source: EventSource | null = null;
    let retry: ReturnType<typeof setTimeout> | undefined;
    let stopped = false;
    // Loaded already once someone is signed in (auth.tsx); imported here so the first page need not.
    let client: typeof ApiClient | null = null;
    const open = () => {
      if (!client) return;
      const { API_BASE, getSession } = client;
      const token = getSession()?.access_token;
      if (!token || stopped) return;
      const current = new EventSource(`${API_BASE}/stream?access_token=${encodeURIComponent(token)}`);
      source = current;
      source.addEventListener("booking", (event: MessageEvent) => {
        void queryClient.invalidateQueries({ queryKey: CONVERSATIONS_KEY });
        // A message may come in the same change as the booking's own event (the expert's request for information).
        if (CONVERSATION_ONLY.has(changeTypeOf(event.data))) return;
        void queryClient.invalidateQueries({ queryKey: BOOKINGS_KEY });
        void queryClient.invalidateQueries({ queryKey: ["availability"] });
      });
      source.addEventListener("open", () => {
        // Anything missed while disconnected is fetched again.
        void queryClient.invalidateQueries({ queryKey: BOOKINGS_KEY });
        void queryClient.invalidateQueries({ queryKey: CONVERSATIONS_KEY });
      });
      // Another of this user's tabs or devices took this stream's place (the server keeps a few per
      // user): stay off until this tab is looked at again, so open tabs do not push each other off.
      source.addEventListener("replaced", () => {
        source?.close();
        source = null;
        clearTimeout(retry);
      });
      source.onerror = () => {
        // A stream already given up (replaced) stays given up.
        if (source !== current) return;
        // The stream checks the token when it opens: reconnect with the current one.
        source?.close();
        clearTimeout(retry);
        retry = setTimeout(open, 2000);
      };
    };
    const reopenWhenSeen = () => {
      if (document.visibilityState === "visible" && source === null && !stopped) open();
    };
    document.addEventListener("visibilitychange", reopenWhenSeen);
    void import("./api-client.ts").then((loaded) => {
      client = loaded;
      open();
    });
    return () => {
      stopped = true;
      clearTimeout(retry);
      source?.close();
      document.removeEventListener("visibilitychange", reopenWhenSeen);
    };
  }, [userId, queryClient]);

  return null;
}
