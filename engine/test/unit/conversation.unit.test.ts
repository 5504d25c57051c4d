import { describe, it } from "vitest";
import type { Actor, ConversationCommand, ConversationEvent } from "@booking/contracts";
import { conversationDecider } from "../../src/conversation/conversation.ts";
import { deciderSpec } from "./decider-spec.ts";

// A booking's conversation (issue 31.3), given/when/then: its two parties write until 7 days after the session, each
// message once, within 2,000 characters; each reader's place and mute are theirs.

const NOW = "2026-03-02T08:00:00.000Z";
const spec = deciderSpec(conversationDecider, NOW);
const CREATOR: Actor = { userId: "c1", role: "creator" };
const EXPERT: Actor = { userId: "x1", role: "expert" };
const booking = { bookingId: "b1", creatorId: "c1", expertUserId: "x1", endsAt: "2026-03-03T11:00:00.000Z" };
const LAST_INSTANT = "2026-03-10T11:00:00.000Z"; // 7 days after the end
const send = (actor: Actor, text = "Can we cover pricing?", messageId = "m1"): ConversationCommand => ({
  type: "SendMessage",
  bookingId: "b1",
  actor,
  booking,
  messageId,
  text,
});
const sent = (by: Actor, seq: number, text = "Can we cover pricing?", messageId = `m${seq}`): ConversationEvent => ({
  type: "MessageSent",
  data: { bookingId: "b1", messageId, seq, by: by.userId, role: by.role as "creator" | "expert", text },
});

describe("sending", () => {
  it("either party writes, numbered in order; a retried send records nothing twice; text is trimmed", () => {
    spec([])
      .when(send(CREATOR, "  Can we cover pricing?  "))
      .then([sent(CREATOR, 1)]);
    spec([sent(CREATOR, 1)])
      .when(send(EXPERT, "Yes", "m2"))
      .then([sent(EXPERT, 2, "Yes")]);
    spec([sent(CREATOR, 1)])
      .when(send(CREATOR))
      .then([]);
  });

  it("until 7 days after the session, its last instant included", () => {
    spec([])
      .when(send(CREATOR), LAST_INSTANT)
      .then([sent(CREATOR, 1)]);
    spec([]).when(send(CREATOR), "2026-03-10T11:00:00.001Z").thenRefused("conversation_closed");
  });

  it("refuses a stranger, an admin, an empty message and one over 2,000 characters", () => {
    spec([])
      .when(send({ userId: "c2", role: "creator" }))
      .thenRefused("not_booking_party");
    spec([])
      .when(send({ userId: "a1", role: "admin" }))
      .thenRefused("not_booking_party");
    spec([]).when(send(CREATOR, "   ")).thenRefused("message_text_invalid");
    spec([])
      .when(send(CREATOR, "x".repeat(2001)))
      .thenRefused("message_text_invalid");
  });
});

describe("reading and muting", () => {
  const read = (actor: Actor, readCount: number): ConversationCommand => ({
    type: "MarkConversationRead",
    bookingId: "b1",
    actor,
    booking,
    readCount,
  });
  const mute = (actor: Actor, muted: boolean): ConversationCommand => ({
    type: "MuteConversation",
    bookingId: "b1",
    actor,
    booking,
    muted,
  });

  it("a reader's place moves forward only, never past the last message", () => {
    const two = [sent(CREATOR, 1), sent(CREATOR, 2)];
    spec(two)
      .when(read(EXPERT, 5))
      .then([{ type: "ConversationRead", data: { bookingId: "b1", userId: "x1", readCount: 2 } }]);
    spec([...two, { type: "ConversationRead", data: { bookingId: "b1", userId: "x1", readCount: 2 } }])
      .when(read(EXPERT, 1))
      .then([]);
    // The sender has read their own messages.
    spec(two).when(read(CREATOR, 2)).then([]);
  });

  it("muting is each reader's own, and saying it twice records it once", () => {
    spec([])
      .when(mute(EXPERT, true))
      .then([{ type: "ConversationMuted", data: { bookingId: "b1", userId: "x1", muted: true } }]);
    spec([{ type: "ConversationMuted", data: { bookingId: "b1", userId: "x1", muted: true } }])
      .when(mute(EXPERT, true))
      .then([]);
    spec([])
      .when(mute({ userId: "c2", role: "creator" }, true))
      .thenRefused("not_booking_party");
  });
});
