import {
  CONVERSATION_DAYS_AFTER,
  MESSAGE_MAX,
  ok,
  refused,
  type ConversationBooking,
  type ConversationCommand,
  type ConversationEvent,
  type ConversationParty,
  type Result,
} from "@booking/contracts";
import type { Decider, DecisionContext } from "../decider.ts";

// Stream `conversation-{bookingId}` (issue 31.3): the messages between a booking's creator and expert, what each has
// read and whether each muted the thread. The booking's facts come in the command: the route reads them from the
// bookings read model, this decider decides.

export type ConversationState = {
  messages: number;
  /** Each reader's count of messages read, by user id. */
  read: Readonly<Record<string, number>>;
  muted: Readonly<Record<string, boolean>>;
  /** Message ids already sent: a retried send records nothing twice. */
  messageIds: ReadonlySet<string>;
};

export const initialConversationState = (): ConversationState => ({ messages: 0, read: {}, muted: {}, messageIds: new Set() });

export function evolveConversation(state: ConversationState, events: readonly ConversationEvent[]): ConversationState {
  let s = state;
  for (const e of events) {
    switch (e.type) {
      case "MessageSent":
        // The sender has read their own message.
        s = {
          ...s,
          messages: s.messages + 1,
          read: { ...s.read, [e.data.by]: s.messages + 1 },
          messageIds: new Set([...s.messageIds, e.data.messageId]),
        };
        break;
      case "ConversationRead":
        s = { ...s, read: { ...s.read, [e.data.userId]: e.data.readCount } };
        break;
      case "ConversationMuted":
        s = { ...s, muted: { ...s.muted, [e.data.userId]: e.data.muted } };
        break;
    }
  }
  return s;
}

/** The party an actor is in the booking, or null for anyone else (an admin reads the thread, never writes in it). */
export const conversationPartyOf = (actor: ConversationCommand["actor"], b: ConversationBooking): ConversationParty | null =>
  actor.role === "creator" && actor.userId === b.creatorId
    ? "creator"
    : actor.role === "expert" && actor.userId === b.expertUserId
      ? "expert"
      : null;

/** Rule: a conversation takes messages until CONVERSATION_DAYS_AFTER days after the session's end. */
export const conversationOpenUntil = (b: Pick<ConversationBooking, "endsAt">): string =>
  new Date(Date.parse(b.endsAt) + CONVERSATION_DAYS_AFTER * 86_400_000).toISOString();

export function decideConversation(c: ConversationCommand, s: ConversationState, ctx: DecisionContext): Result<ConversationEvent[]> {
  const role = conversationPartyOf(c.actor, c.booking);
  if (!role) return refused("not_booking_party");
  const bookingId = c.booking.bookingId;
  switch (c.type) {
    case "SendMessage": {
      if (s.messageIds.has(c.messageId)) return ok([]);
      const text = c.text.trim();
      // Checked here too, not only at the boundary: the decider is the rule whoever calls it.
      if (text.length === 0 || text.length > MESSAGE_MAX) return refused("message_text_invalid");
      if (Date.parse(ctx.now) > Date.parse(conversationOpenUntil(c.booking))) return refused("conversation_closed");
      return ok([
        { type: "MessageSent", data: { bookingId, messageId: c.messageId, seq: s.messages + 1, by: c.actor.userId, role, text } },
      ]);
    }
    case "MarkConversationRead": {
      const upTo = Math.min(c.readCount, s.messages);
      if (upTo <= (s.read[c.actor.userId] ?? 0)) return ok([]);
      return ok([{ type: "ConversationRead", data: { bookingId, userId: c.actor.userId, readCount: upTo } }]);
    }
    case "MuteConversation":
      if ((s.muted[c.actor.userId] ?? false) === c.muted) return ok([]);
      return ok([{ type: "ConversationMuted", data: { bookingId, userId: c.actor.userId, muted: c.muted } }]);
  }
}

export const conversationDecider: Decider<ConversationCommand, ConversationEvent, ConversationState> = {
  initialState: initialConversationState,
  evolve: evolveConversation,
  decide: decideConversation,
};

export const conversationStream = (bookingId: string) => `conversation-${bookingId}`;
