import type pg from "pg";
import { ApplicationBody, ApplicationReply, ExpertStandingReply } from "@booking/contracts";
import { expertStream } from "@booking/engine";
import type { ExpertCommands } from "../main/index.ts";
import { actorOf, commandActor, requireExpertAccount, valueOf } from "../http/index.ts";
import type { Projected, RoutePlugin } from "../http/index.ts";
import { applicationReply } from "./application-reply.ts";
import { expertStanding } from "./standing-reply.ts";

// The expert's side of vetting (issue 30): their application on their own stream (`expert-{their id}`, the id
// an expert's profile has), where it stands and why, and the standards they keep once approved.

export type VettingRouteDeps = { db: pg.Pool; experts: ExpertCommands; projected: Projected };

export const vettingRoutes: RoutePlugin<VettingRouteDeps> = async (app, { db, experts, projected }) => {
  app.get(
    "/experts/me/application",
    { onRequest: requireExpertAccount, schema: { response: { 200: ApplicationReply } } },
    async (request) => applicationReply((await experts.load(expertStream(actorOf(request).userId))).state),
  );

  app.post(
    "/experts/me/application",
    { onRequest: requireExpertAccount, schema: { body: ApplicationBody, response: { 201: ApplicationReply } } },
    async (request, reply) => {
      const actor = commandActor(actorOf(request));
      const expertId = actor.userId;
      const result = valueOf(
        await experts.handle(expertStream(expertId), { type: "SubmitApplication", expertId, actor, answers: request.body }, { actor }),
      );
      // The console's queue shows it once the reply is sent.
      await projected(result);
      return reply.status(201).send(applicationReply((await experts.load(expertStream(expertId))).state));
    },
  );

  app.get(
    "/experts/me/standing",
    { onRequest: requireExpertAccount, schema: { response: { 200: ExpertStandingReply } } },
    async (request) => expertStanding(db, actorOf(request).userId),
  );
};
