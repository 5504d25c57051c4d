import { z } from "zod";
import { Actor, Id, multiLine } from "./primitives.ts";

// A conversation per booking (issue 31.3): the creator and the expert exchange messages from the request until
// CONVERSATION_DAYS_AFTER days after the session. Stream `conversation-{bookingId}`, so the calendar stream does not
// grow with chat; the rules are in engine/src/conversation/conversation.ts.

/** Rule: messages may be sent until this many days after the session's end. */
export const CONVERSATION_DAYS_AFTER = 7;
/** The longest message. */
export const MESSAGE_MAX = 2000;
/** Rule: a thread's new-message mail goes to a reader at most once per this many minutes (the first message of each period). */
export const MESSAGE_MAIL_EVERY_MINUTES = 15;

export const MessageText = multiLine(
  z
    .string({ error: "message_text_invalid" })
    .trim()
    .min(1, { error: "message_text_invalid" })
    .max(MESSAGE_MAX, { error: "message_text_invalid" }),
);

export const ConversationParty = z.enum(["creator", "expert"]);
export type ConversationParty = z.infer<typeof ConversationParty>;

/** The booking's facts a conversation's rules read (the route takes them from the bookings read model). */
export const ConversationBooking = z.object({
  bookingId: Id,
  creatorId: z.string(),
  expertUserId: z.string(),
  /** The session's end: messages are taken until CONVERSATION_DAYS_AFTER days after it. */
  endsAt: z.string(),
});
export type ConversationBooking = z.infer<typeof ConversationBooking>;

const onConversation = { bookingId: Id, actor: Actor, booking: ConversationBooking };

export const ConversationCommand = z.discriminatedUnion("type", [
  z.object({ type: z.literal("SendMessage"), ...onConversation, messageId: Id, text: MessageText }),
  /** The reader has read the thread up to its `readCount`th message. */
  z.object({ type: z.literal("MarkConversationRead"), ...onConversation, readCount: z.number().int().nonnegative() }),
  /** No new-message mails for this reader while muted (the thread still counts as unread). */
  z.object({ type: z.literal("MuteConversation"), ...onConversation, muted: z.boolean() }),
]);
export type ConversationCommand = z.infer<typeof ConversationCommand>;

export const ConversationEvent = z.discriminatedUnion("type", [
  z.object({
    type: z.literal("MessageSent"),
    /** `seq`: the message's place in the thread, from 1. */
    data: z.object({
      bookingId: Id,
      messageId: Id,
      seq: z.number().int().positive(),
      by: z.string(),
      role: ConversationParty,
      text: z.string(),
    }),
  }),
  z.object({ type: z.literal("ConversationRead"), data: z.object({ bookingId: Id, userId: z.string(), readCount: z.number().int() }) }),
  z.object({ type: z.literal("ConversationMuted"), data: z.object({ bookingId: Id, userId: z.string(), muted: z.boolean() }) }),
]);
export type ConversationEvent = z.infer<typeof ConversationEvent>;

/** A message as both parties see it. */
export const MessageReply = z.strictObject({
  id: z.string(),
  by: z.string(),
  role: ConversationParty,
  text: z.string(),
  sent_at: z.string(),
});
export type MessageReply = z.infer<typeof MessageReply>;

/** GET /bookings/{id}/messages: the thread, oldest first, with what the reader has not read and whether they muted it. */
export const ConversationReply = z.strictObject({
  booking_id: z.string(),
  messages: z.array(MessageReply),
  unread: z.number().int(),
  muted: z.boolean(),
  /** Until when messages are taken (the session's end plus CONVERSATION_DAYS_AFTER days). */
  open_until: z.string(),
});
export type ConversationReply = z.infer<typeof ConversationReply>;

/** GET /me/unread-messages: the reader's unread messages over all their bookings. */
export const UnreadMessagesReply = z.strictObject({
  total: z.number().int(),
  bookings: z.array(z.strictObject({ booking_id: z.string(), unread: z.number().int() })),
});
export type UnreadMessagesReply = z.infer<typeof UnreadMessagesReply>;

export const MessageBody = z.strictObject({ text: MessageText });
export const MuteBody = z.strictObject({ muted: z.boolean({ error: "invalid_request" }) });
