import { useEffect, useRef, useState } from "react";
import { useQueryClient } from "@tanstack/react-query";
import type { Conversation } from "../shared/api-types.ts";
import { conversationCalls, conversationQuery, unreadMessagesQuery } from "./conversation-queries.ts";

// A thread shown is a thread read (issue 31.3): when it opens with unread messages, and when new ones arrive while the
// page is in view (the live feed refetches it). A hidden tab waits until it is looked at again.

const pageInView = () => typeof document === "undefined" || document.visibilityState !== "hidden";

/** Whether the page is in view, following the tab being hidden and shown again. */
function usePageInView(): boolean {
  const [inView, setInView] = useState(pageInView);
  useEffect(() => {
    const follow = () => setInView(pageInView());
    document.addEventListener("visibilitychange", follow);
    return () => document.removeEventListener("visibilitychange", follow);
  }, []);
  return inView;
}

/** Marks the booking's thread read while `conversation` (the reader's, undefined for a non-party) shows unread messages. */
export function useMarkReadWhileShown(bookingId: string, conversation: Conversation | undefined): void {
  const queryClient = useQueryClient();
  const inView = usePageInView();
  // The thread's length last marked: each new message is marked once, not once per render.
  const marked = useRef(-1);
  const unread = conversation?.unread ?? 0;
  const count = conversation?.messages.length ?? 0;
  useEffect(() => {
    if (!inView || unread === 0 || marked.current >= count) return;
    marked.current = count;
    conversationCalls.markRead(bookingId).then(
      (reply) => {
        queryClient.setQueryData(conversationQuery(bookingId).queryKey, reply);
        void queryClient.invalidateQueries({ queryKey: unreadMessagesQuery().queryKey });
      },
      // Left unread: the next message (or the next visit) tries again.
      () => undefined,
    );
  }, [bookingId, inView, unread, count, queryClient]);
}
