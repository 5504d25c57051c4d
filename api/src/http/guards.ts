import type { FastifyRequest } from "fastify";
import type { Actor } from "@booking/contracts";
import { expertStream } from "@booking/engine";
import type { ExpertCommands, TermsCommands } from "../main/index.ts";
import { refuse } from "./errors.ts";
import { acceptedCurrentTerms } from "../terms/index.ts";

type SignedIn = Actor & { role: "creator" | "expert" | "admin" };

/** The actor as commands record it. */
export const commandActor = (a: SignedIn): Actor => ({ userId: a.userId, role: a.role });

/** Rule: booking, creating sessions and setting a schedule need the current terms accepted (admins act for others). */
export async function requireCurrentTerms({ terms }: { terms: TermsCommands }, actor: SignedIn): Promise<void> {
  if (actor.role === "admin") return;
  if (!(await acceptedCurrentTerms({ terms }, actor.userId))) refuse("terms_not_accepted");
}

/**
 * onRequest: the caller's own expert account ("me" routes). Admins act on experts' things through
 * the console and never become experts themselves, so they are refused here rather than let by.
 */
export async function requireExpertAccount(request: FastifyRequest): Promise<void> {
  if (!request.actor) refuse("no_access_token");
  if (request.actor.role === "admin") refuse("admin_not_expert");
  if (request.actor.role !== "expert") refuse("forbidden");
}

/** Rule: an expert's expert id is their user id; only they (or an admin) act as that expert. */
export function requireOwnExpert(actor: SignedIn, expertId: string): void {
  if (actor.role === "admin") return;
  if (actor.role !== "expert" || actor.userId !== expertId) refuse("forbidden");
}

/** Rule: session and schedule creation unlock once the expert has a profile (read from its stream, never a lagging read model). */
export async function requireExpertProfile({ experts }: { experts: ExpertCommands }, expertId: string): Promise<void> {
  const { state } = await experts.load(expertStream(expertId));
  if (state.kind !== "profiled") refuse("expert_profile_required");
}
