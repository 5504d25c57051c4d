import { AcceptTermsBody, CURRENT_TERMS_VERSION } from "@booking/contracts";
import { hasAcceptedTerms, termsStream } from "@booking/engine";
import { actorOf, requireActor } from "../http/auth-guard.ts";
import { valueOf } from "../http/errors.ts";
import type { RoutePlugin } from "../http/route-plugin.ts";
import type { AppContext } from "../context.ts";

/** Rule: has this user accepted the current terms version? Read from the event store, so a fresh acceptance counts at once. */
export async function acceptedCurrentTerms(ctx: AppContext, userId: string): Promise<boolean> {
  const { state } = await ctx.terms.load(termsStream(userId));
  return hasAcceptedTerms(state, CURRENT_TERMS_VERSION);
}

export const termsRoutes: RoutePlugin = async (app, ctx) => {
  app.get("/terms/latest", async () => ({ version_id: CURRENT_TERMS_VERSION }));

  app.get("/terms/status", { onRequest: requireActor() }, async (request) => ({ accepted: await acceptedCurrentTerms(ctx, actorOf(request).userId) }));

  app.post("/terms/accept", { onRequest: requireActor(), schema: { body: AcceptTermsBody } }, async (request) => {
    const actor = actorOf(request);
    const result = valueOf(
      await ctx.terms.handle(
        termsStream(actor.userId),
        { type: "AcceptTerms", userId: actor.userId, actor: { userId: actor.userId, role: actor.role }, versionId: request.body.version_id, currentVersionId: CURRENT_TERMS_VERSION },
        { actor: { userId: actor.userId, role: actor.role } },
      ),
    );
    await ctx.projected(result);
    return { accepted: true, version_id: request.body.version_id };
  });
};
