import { queryOptions, useQuery } from "@tanstack/react-query";
import { api } from "../shared/api-client.ts";
import type { Booking, Conversation, UnreadMessages } from "../shared/api-types.ts";
import type { AuthState } from "../shared/auth.tsx";
import { CONVERSATIONS_KEY } from "../shared/query-client.ts";

// A booking's conversation (issue 31.3): the thread both parties write in, and the reader's unread counts over their
// bookings. Both live under CONVERSATIONS_KEY, which the live booking feed invalidates on every change.

const bookingPath = (bookingId: string) => `/bookings/${encodeURIComponent(bookingId)}/messages`;

export const conversationQuery = (bookingId: string) =>
  queryOptions({
    queryKey: [...CONVERSATIONS_KEY, "thread", bookingId],
    queryFn: ({ signal }) => api.get<Conversation>(bookingPath(bookingId), { signal }),
    staleTime: 0,
    retry: false,
  });

export const unreadMessagesQuery = () =>
  queryOptions({
    queryKey: [...CONVERSATIONS_KEY, "unread"],
    queryFn: ({ signal }) => api.get<UnreadMessages>("/me/unread-messages", { signal }),
    staleTime: 0,
    retry: false,
  });

/** The calls that change a conversation; each answers the thread as the reader now sees it. */
export const conversationCalls = {
  send: (bookingId: string, text: string) => api.post<Conversation>(bookingPath(bookingId), { text }),
  markRead: (bookingId: string) => api.post<Conversation>(`${bookingPath(bookingId)}/read`),
  mute: (bookingId: string, muted: boolean) => api.put<Conversation>(`${bookingPath(bookingId)}/mute`, { muted }),
};

/** The signed-in user's side of the booking's conversation, or null for anyone else (an admin reads, never writes). */
export function conversationPartyOf(auth: Pick<AuthState, "user">, booking: Booking): "creator" | "expert" | null {
  const me = auth.user;
  if (!me) return null;
  if (me.role === "creator" && me.id === booking.creator_id) return "creator";
  if (me.role === "expert" && (me.id === booking.expert_id || me.expert_id === booking.expert_id)) return "expert";
  return null;
}

/** The conversation is closed once its last day passed (`open_until`, the session's end plus 7 days). */
export const conversationClosed = (conversation: Pick<Conversation, "open_until">, now = Date.now()): boolean =>
  now > Date.parse(conversation.open_until);

/**
 * The signed-in user's unread messages: the total and a count per booking. Not asked for when `enabled` is false (an
 * admin looking at someone's dashboard: the counts would be the admin's own).
 */
export function useUnreadMessages(enabled = true) {
  const unread = useQuery({ ...unreadMessagesQuery(), enabled });
  const counts = new Map((unread.data?.bookings ?? []).map((b) => [b.booking_id, b.unread]));
  return { total: unread.data?.total ?? 0, of: (bookingId: string) => counts.get(bookingId) ?? 0, loaded: unread.isSuccess };
}
