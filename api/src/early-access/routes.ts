import type pg from "pg";
import { EarlyAccessBody, NoContent } from "@booking/contracts";
import { attemptsPerMinute } from "../auth/index.ts";
import type { RoutePlugin } from "../http/index.ts";
import { saveEarlyAccessRequest } from "./requests.ts";

export type EarlyAccessRouteDeps = { db: pg.Pool; clock: () => string };

/**
 * POST /early-access: public, limited per client address like the credential routes. The answer is
 * the same for a new address and a known one, so the form never tells whether an address asked before.
 */
export const earlyAccessRoutes: RoutePlugin<EarlyAccessRouteDeps> = async (app, { db, clock }) => {
  const rateLimit = { max: attemptsPerMinute(), timeWindow: "1 minute" };
  app.post(
    "/early-access",
    { config: { rateLimit }, schema: { body: EarlyAccessBody, response: { 204: NoContent } } },
    async (request, reply) => {
      await saveEarlyAccessRequest(db, request.body, clock());
      return reply.status(204).send(null);
    },
  );
};
