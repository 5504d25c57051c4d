import { EarlyAccessBody } from "@booking/contracts";
import { attemptsPerMinute } from "../auth/routes.ts";
import type { RoutePlugin } from "../http/route-plugin.ts";
import { saveEarlyAccessRequest } from "./requests.ts";

/**
 * POST /early-access: public, limited per client address like the credential routes. The answer is
 * the same for a new address and a known one, so the form never tells whether an address asked before.
 */
export const earlyAccessRoutes: RoutePlugin = async (app, ctx) => {
  const rateLimit = { max: attemptsPerMinute(), timeWindow: "1 minute" };
  app.post("/early-access", { config: { rateLimit }, schema: { body: EarlyAccessBody } }, async (request, reply) => {
    await saveEarlyAccessRequest(ctx.db, request.body, ctx.clock());
    return reply.status(204).send();
  });
};
