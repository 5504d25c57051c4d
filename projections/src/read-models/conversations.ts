import type { ConversationReply, Migration, UnreadMessagesReply } from "@booking/contracts";
import { erased } from "../erasure.ts";
import { entityProjection, factsProjection, streamEntityId, type ProjectedEvent } from "../projection.ts";
import type { Queryable } from "./bookings-queries.ts";

// The conversations of bookings (issue 31.3), two read models of stream `conversation-{bookingId}`: `messages`, one row
// per message (facts: a message is never changed), and `conversation_readers`, one row per booking and reader with how
// far they have read (a sender has read their own message) and whether they muted the thread.

export type MessageRow = {
  message_id: string;
  booking_id: string;
  seq: number;
  sender_id: string;
  sender_role: string;
  text: string;
  sent_at: string;
};
export type ConversationReaderRow = { booking_id: string; user_id: string; read_count: number; muted: boolean; stream_version: number };

export const conversationMigrations: readonly Migration[] = [
  {
    name: "027_conversations",
    sql: `
      CREATE TABLE messages (
        message_id text PRIMARY KEY,
        booking_id text NOT NULL,
        seq int NOT NULL,
        sender_id text NOT NULL,
        sender_role text NOT NULL,
        text text NOT NULL,
        sent_at timestamptz NOT NULL
      );
      CREATE INDEX messages_booking ON messages (booking_id, seq);
      CREATE TABLE conversation_readers (
        booking_id text NOT NULL,
        user_id text NOT NULL,
        read_count int NOT NULL,
        muted boolean NOT NULL,
        stream_version bigint NOT NULL,
        PRIMARY KEY (booking_id, user_id)
      );
    `,
  },
];

const messageColumns = ["message_id", "booking_id", "seq", "sender_id", "sender_role", "text", "sent_at"] as const;
const readerColumns = ["booking_id", "user_id", "read_count", "muted", "stream_version"] as const;

export const messagesProjection = factsProjection<MessageRow>({
  name: "messages",
  version: 1,
  table: "messages",
  key: ["message_id"],
  columns: messageColumns,
  rows: ({ event, stored }) =>
    event.type === "MessageSent"
      ? [
          {
            message_id: event.data.messageId,
            booking_id: event.data.bookingId,
            seq: event.data.seq,
            sender_id: event.data.by,
            sender_role: event.data.role,
            text: event.data.text,
            sent_at: stored.metadata.at,
          },
        ]
      : [],
  // Issue 33.2: an erased sender's messages stay in the thread (the other party's replies answer them), without their words.
  erasure: {
    rowsOf: () => "t.sender_id = p.user_id",
    erase: (rows) => (rows as MessageRow[]).map((r) => ({ ...r, text: erased(r.text) })),
  },
});

/** The whole rule of a reader's row: how far they have read, whether they muted the thread. */
export function evolveConversationReader(
  row: ConversationReaderRow | undefined,
  { event, stored }: ProjectedEvent,
): ConversationReaderRow | undefined {
  const base = (userId: string): ConversationReaderRow =>
    row ?? { booking_id: streamEntityId(stored.streamId), user_id: userId, read_count: 0, muted: false, stream_version: 0 };
  switch (event.type) {
    case "MessageSent": {
      const r = base(event.data.by);
      return { ...r, read_count: Math.max(r.read_count, event.data.seq), stream_version: stored.version };
    }
    case "ConversationRead": {
      const r = base(event.data.userId);
      return { ...r, read_count: Math.max(r.read_count, event.data.readCount), stream_version: stored.version };
    }
    case "ConversationMuted":
      return { ...base(event.data.userId), muted: event.data.muted, stream_version: stored.version };
    default:
      return row;
  }
}

export const conversationReadersProjection = entityProjection<ConversationReaderRow>({
  name: "conversation_readers",
  version: 1,
  table: "conversation_readers",
  key: ["booking_id", "user_id"],
  columns: readerColumns,
  rowKey: ({ event }) =>
    event.type === "MessageSent"
      ? [event.data.bookingId, event.data.by]
      : event.type === "ConversationRead" || event.type === "ConversationMuted"
        ? [event.data.bookingId, event.data.userId]
        : null,
  evolve: evolveConversationReader,
});

/** A booking's thread as `userId` reads it: the messages, how many from the other party they have not read, muted or not. */
export async function conversationOf(
  db: Queryable,
  bookingId: string,
  userId: string,
): Promise<Pick<ConversationReply, "messages" | "unread" | "muted">> {
  const [messages, reader] = await Promise.all([
    db.query<{ message_id: string; seq: number; sender_id: string; sender_role: "creator" | "expert"; text: string; sent_at: Date }>(
      "SELECT message_id, seq, sender_id, sender_role, text, sent_at FROM messages WHERE booking_id = $1 ORDER BY seq",
      [bookingId],
    ),
    db.query<{ read_count: number; muted: boolean }>(
      "SELECT read_count, muted FROM conversation_readers WHERE booking_id = $1 AND user_id = $2",
      [bookingId, userId],
    ),
  ]);
  const read = reader.rows[0]?.read_count ?? 0;
  return {
    messages: messages.rows.map((m) => ({
      id: m.message_id,
      by: m.sender_id,
      role: m.sender_role,
      text: m.text,
      sent_at: m.sent_at.toISOString(),
    })),
    unread: messages.rows.filter((m) => m.sender_id !== userId && m.seq > read).length,
    muted: reader.rows[0]?.muted ?? false,
  };
}

/** The reader's unread messages over every booking they are a party of. */
export async function unreadMessagesOf(db: Queryable, userId: string): Promise<UnreadMessagesReply> {
  const { rows } = await db.query<{ booking_id: string; unread: string }>(
    `SELECT m.booking_id, count(*) AS unread FROM messages m
     JOIN bookings b ON b.booking_id = m.booking_id AND (b.creator_id = $1 OR b.expert_user_id = $1)
     LEFT JOIN conversation_readers r ON r.booking_id = m.booking_id AND r.user_id = $1
     WHERE m.sender_id <> $1 AND m.seq > COALESCE(r.read_count, 0)
     GROUP BY m.booking_id ORDER BY m.booking_id`,
    [userId],
  );
  const bookings = rows.map((r) => ({ booking_id: r.booking_id, unread: Number(r.unread) }));
  return { total: bookings.reduce((n, b) => n + b.unread, 0), bookings };
}
