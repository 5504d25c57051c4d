import { ok, refused, type Result, type TermsCommand, type TermsEvent } from "@booking/contracts";
import type { Decider, DecisionContext } from "../decider.ts";

// Stream `terms-{userId}`: every acceptance of a terms version, for the audit.

export type TermsState = { acceptedVersions: readonly string[] };

export const initialTermsState = (): TermsState => ({ acceptedVersions: [] });

export function evolveTerms(state: TermsState, events: readonly TermsEvent[]): TermsState {
  const accepted = events.filter((e) => e.type === "TermsAccepted").map((e) => e.data.versionId);
  return accepted.length ? { acceptedVersions: [...state.acceptedVersions, ...accepted] } : state;
}

/** Rule: a user accepts the current version for themselves; accepting it again records nothing new. */
export function decideTerms(c: TermsCommand, s: TermsState, ctx: DecisionContext): Result<TermsEvent[]> {
  if (c.actor.userId !== c.userId && c.actor.role !== "admin") return refused("forbidden");
  if (c.versionId !== c.currentVersionId) return refused("terms_version_unknown");
  if (s.acceptedVersions.includes(c.versionId)) return ok([]);
  return ok([{ type: "TermsAccepted", data: { userId: c.userId, versionId: c.versionId, acceptedAt: ctx.now } }]);
}

export const hasAcceptedTerms = (s: TermsState, currentVersionId: string) => s.acceptedVersions.includes(currentVersionId);

export const termsDecider: Decider<TermsCommand, TermsEvent, TermsState> = {
  initialState: initialTermsState,
  evolve: evolveTerms,
  decide: decideTerms,
};

export const termsStream = (userId: string) => `terms-${userId}`;
