import { z } from "zod";
import {
  FULL_REFUND_HOURS_OPTIONS,
  MAX_PREP_QUESTIONS,
  MIN_PREP_QUESTIONS,
  RESCHEDULE_HOURS_OPTIONS,
  type FullRefundHours,
  type RescheduleHours,
} from "./constants.ts";
import { Currency } from "./money.ts";
import { Actor, Id, PriceCents, SessionLength } from "./primitives.ts";

// Stream `session-{sessionId}`: a bookable session's definition and status.

export const SessionStatus = z.enum(["draft", "published"]);
export type SessionStatus = z.infer<typeof SessionStatus>;

const trimmedText = (max: number) => z.string({ error: "invalid_request" }).trim().max(max, { error: "invalid_request" });

/** The spec's session form: title, price, length, descriptions, who it is for, 1-3 prep questions. */
const FullRefundHoursSchema = z
  .number({ error: "session_cut_off_invalid" })
  .refine((n): n is FullRefundHours => (FULL_REFUND_HOURS_OPTIONS as readonly number[]).includes(n), { error: "session_cut_off_invalid" });
const RescheduleHoursSchema = z
  .number({ error: "session_cut_off_invalid" })
  .refine((n): n is RescheduleHours => (RESCHEDULE_HOURS_OPTIONS as readonly number[]).includes(n), { error: "session_cut_off_invalid" });

export const SessionDefinition = z.object({
  title: z
    .string({ error: "session_title_required" })
    .trim()
    .min(1, { error: "session_title_required" })
    .max(200, { error: "session_title_required" }),
  description: trimmedText(2000).default(""),
  priceCents: PriceCents,
  lengthMinutes: SessionLength,
  prepQuestions: z
    .array(
      z
        .string({ error: "session_prep_questions_invalid" })
        .trim()
        .min(1, { error: "session_prep_questions_invalid" })
        .max(500, { error: "session_prep_questions_invalid" }),
      {
        error: "session_prep_questions_invalid",
      },
    )
    .min(MIN_PREP_QUESTIONS, { error: "session_prep_questions_invalid" })
    .max(MAX_PREP_QUESTIONS, { error: "session_prep_questions_invalid" }),
  sessionDetails: trimmedText(10_000).default(""),
  idealFor: z.array(trimmedText(200)).max(20, { error: "invalid_request" }).default([]),
  /** Accepted on payment, with no request for the expert to answer (issue 27.6); absent (sessions saved before it existed): off. */
  instantBooking: z.boolean({ error: "invalid_request" }).optional(),
  /** The price's currency (issue 29.8); absent (sessions saved before it existed): US dollars. */
  currency: Currency.optional(),
  /** Cut-offs (issue 31.4): full refund until, and moves until, this many hours before the start; absent: 24 and 24. */
  fullRefundHours: FullRefundHoursSchema.optional(),
  rescheduleHours: RescheduleHoursSchema.optional(),
});
export type SessionDefinition = z.infer<typeof SessionDefinition>;

export const SessionCommand = z.discriminatedUnion("type", [
  z.object({
    type: z.literal("CreateSession"),
    sessionId: Id,
    expertId: Id,
    actor: Actor,
    definition: SessionDefinition,
    status: SessionStatus.default("draft"),
  }),
  z.object({ type: z.literal("UpdateSession"), sessionId: Id, actor: Actor, expertId: Id, definition: SessionDefinition }),
  z.object({ type: z.literal("PublishSession"), sessionId: Id, actor: Actor, expertId: Id }),
  z.object({ type: z.literal("UnpublishSession"), sessionId: Id, actor: Actor, expertId: Id }),
  z.object({ type: z.literal("DeleteSession"), sessionId: Id, actor: Actor, expertId: Id }),
]);
export type SessionCommand = z.infer<typeof SessionCommand>;

export const SessionEvent = z.discriminatedUnion("type", [
  z.object({
    type: z.literal("SessionCreated"),
    data: z.object({ sessionId: Id, expertId: Id, status: SessionStatus, definition: SessionDefinition }),
  }),
  z.object({ type: z.literal("SessionUpdated"), data: z.object({ sessionId: Id, definition: SessionDefinition }) }),
  z.object({ type: z.literal("SessionPublished"), data: z.object({ sessionId: Id }) }),
  z.object({ type: z.literal("SessionUnpublished"), data: z.object({ sessionId: Id }) }),
  z.object({ type: z.literal("SessionDeleted"), data: z.object({ sessionId: Id }) }),
]);
export type SessionEvent = z.infer<typeof SessionEvent>;
