import { z } from "zod";
import { Actor, Id } from "./primitives.ts";

// Stream `terms-{userId}`: every acceptance of a terms version, kept for the audit.

export const TermsCommand = z.discriminatedUnion("type", [
  z.object({
    type: z.literal("AcceptTerms"),
    userId: Id,
    actor: Actor,
    versionId: z.string().min(1).max(64),
    currentVersionId: z.string(),
  }),
]);
export type TermsCommand = z.infer<typeof TermsCommand>;

export const TermsEvent = z.discriminatedUnion("type", [
  z.object({ type: z.literal("TermsAccepted"), data: z.object({ userId: Id, versionId: z.string(), acceptedAt: z.string() }) }),
]);
export type TermsEvent = z.infer<typeof TermsEvent>;
