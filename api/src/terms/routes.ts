import { AcceptTermsBody, CURRENT_TERMS_VERSION, TermsAcceptedReply, TermsLatestReply, TermsStatusReply } from "@booking/contracts";
import { hasAcceptedTerms, termsStream } from "@booking/engine";
import type { TermsCommands } from "../main/index.ts";
import { actorOf, requireActor, valueOf } from "../http/index.ts";
import type { RoutePlugin, Projected } from "../http/index.ts";

export type TermsRouteDeps = { terms: TermsCommands; projected: Projected };

/** Rule: has this user accepted the current terms version? Read from the event store, so a fresh acceptance counts at once. */
export async function acceptedCurrentTerms({ terms }: { terms: TermsCommands }, userId: string): Promise<boolean> {
  const { state } = await terms.load(termsStream(userId));
  return hasAcceptedTerms(state, CURRENT_TERMS_VERSION);
}

export const termsRoutes: RoutePlugin<TermsRouteDeps> = async (app, { terms, projected }) => {
  app.get("/terms/latest", { schema: { response: { 200: TermsLatestReply } } }, async () => ({ version_id: CURRENT_TERMS_VERSION }));

  app.get("/terms/status", { onRequest: requireActor(), schema: { response: { 200: TermsStatusReply } } }, async (request) => ({
    accepted: await acceptedCurrentTerms({ terms }, actorOf(request).userId),
  }));

  app.post(
    "/terms/accept",
    { onRequest: requireActor(), schema: { body: AcceptTermsBody, response: { 200: TermsAcceptedReply } } },
    async (request) => {
      const actor = actorOf(request);
      const result = valueOf(
        await terms.handle(
          termsStream(actor.userId),
          {
            type: "AcceptTerms",
            userId: actor.userId,
            actor: { userId: actor.userId, role: actor.role },
            versionId: request.body.version_id,
            currentVersionId: CURRENT_TERMS_VERSION,
          },
          { actor: { userId: actor.userId, role: actor.role } },
        ),
      );
      await projected(result);
      return { accepted: true as const, version_id: request.body.version_id };
    },
  );
};
