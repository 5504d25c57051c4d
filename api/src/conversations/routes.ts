import { randomUUID } from "node:crypto";
import type pg from "pg";
import {
  BookingIdParams,
  ConversationReply,
  MessageBody,
  MuteBody,
  UnreadMessagesReply,
  type ConversationBooking,
  type ConversationCommand,
} from "@booking/contracts";
import { conversationOpenUntil, conversationStream } from "@booking/engine";
import { conversationOf, unreadMessagesOf, type BookingWithParties } from "@booking/projections";
import { bookingFor, type SignedIn } from "../bookings/index.ts";
import { actorOf, commandActor, idempotencyKeyOf, requireActor, valueOf } from "../http/index.ts";
import type { Projected, RoutePlugin } from "../http/index.ts";
import type { ConversationCommands } from "../main/index.ts";

// A conversation per booking (issue 31.3): its two parties read and write it (an admin reads it in the console), mark
// it read and mute its mails; each step a command on the booking's conversation stream. Strangers learn nothing of it
// (the booking is not found).

export type ConversationRouteDeps = { db: pg.Pool; conversations: ConversationCommands; projected: Projected };

const thread = { response: { 200: ConversationReply } };

/** The booking's facts the conversation's rules read. */
const factsOf = (b: BookingWithParties): ConversationBooking => ({
  bookingId: b.booking_id,
  creatorId: b.creator_id,
  expertUserId: b.expert_user_id,
  endsAt: new Date(Date.parse(b.scheduled_time) + b.length_minutes * 60_000).toISOString(),
});

/** A command of the conversation without what the route fills in (each member of the union keeps its own fields). */
type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;

/** Decide a command on the booking's conversation as `actor`, and wait for the read models to show it. */
async function runOnConversation(
  { conversations, projected }: Pick<ConversationRouteDeps, "conversations" | "projected">,
  b: BookingWithParties,
  actor: SignedIn,
  command: DistributiveOmit<ConversationCommand, "bookingId" | "actor" | "booking">,
  idempotencyKey?: string,
): Promise<void> {
  const full = { ...command, bookingId: b.booking_id, actor: commandActor(actor), booking: factsOf(b) } as ConversationCommand;
  const result = await conversations.handle(conversationStream(b.booking_id), full, {
    actor: full.actor,
    ...(idempotencyKey && { idempotencyKey }),
  });
  await projected(valueOf(result));
}

/** The expert's request for information, as their message in the booking's conversation (issue 31.3). */
export const infoRequestedAsMessage =
  (deps: Pick<ConversationRouteDeps, "conversations" | "projected">) => (b: BookingWithParties, actor: SignedIn, note: string) =>
    runOnConversation(deps, b, actor, { type: "SendMessage", messageId: randomUUID(), text: note });

export const conversationRoutes: RoutePlugin<ConversationRouteDeps> = async (app, deps) => {
  const { db } = deps;
  const reply = async (b: BookingWithParties, userId: string): Promise<ConversationReply> => ({
    booking_id: b.booking_id,
    ...(await conversationOf(db, b.booking_id, userId)),
    open_until: conversationOpenUntil(factsOf(b)),
  });
  app.get(
    "/bookings/:bookingId/messages",
    { onRequest: requireActor(), schema: { params: BookingIdParams, ...thread } },
    async (request) => {
      const actor = actorOf(request);
      return reply(await bookingFor(db, actor, request.params.bookingId), actor.userId);
    },
  );

  app.post(
    "/bookings/:bookingId/messages",
    { onRequest: requireActor(), schema: { params: BookingIdParams, body: MessageBody, ...thread } },
    async (request) => {
      const actor = actorOf(request);
      const b = await bookingFor(db, actor, request.params.bookingId);
      const message = { type: "SendMessage", messageId: randomUUID(), text: request.body.text } as const;
      await runOnConversation(deps, b, actor, message, idempotencyKeyOf(request.headers));
      return reply(b, actor.userId);
    },
  );

  app.post(
    "/bookings/:bookingId/messages/read",
    { onRequest: requireActor(), schema: { params: BookingIdParams, ...thread } },
    async (request) => {
      const actor = actorOf(request);
      const b = await bookingFor(db, actor, request.params.bookingId);
      const { messages } = await conversationOf(db, b.booking_id, actor.userId);
      await runOnConversation(deps, b, actor, { type: "MarkConversationRead", readCount: messages.length });
      return reply(b, actor.userId);
    },
  );

  app.put(
    "/bookings/:bookingId/messages/mute",
    { onRequest: requireActor(), schema: { params: BookingIdParams, body: MuteBody, ...thread } },
    async (request) => {
      const actor = actorOf(request);
      const b = await bookingFor(db, actor, request.params.bookingId);
      await runOnConversation(deps, b, actor, { type: "MuteConversation", muted: request.body.muted });
      return reply(b, actor.userId);
    },
  );

  app.get("/me/unread-messages", { onRequest: requireActor(), schema: { response: { 200: UnreadMessagesReply } } }, async (request) =>
    unreadMessagesOf(db, actorOf(request).userId),
  );
};
