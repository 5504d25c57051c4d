import type pg from "pg";
import { NoContent, SignInParams, SignInsReply } from "@booking/contracts";
import { actorOf, requireActor, refuse, type RoutePlugin } from "../http/index.ts";
import { revokeFamily } from "./refresh-tokens.ts";
import { activeSignIns, ownsActiveSignIn } from "./sign-ins-table.ts";

// Where a person is signed in, and ending one of those sign-ins (issue 33.5). "Sign out everywhere
// else" is POST /auth/logout with { scope: "others" }.

export const signInRoutes: RoutePlugin<{ db: pg.Pool; clock: () => string }> = async (app, { db, clock }) => {
  app.get("/auth/sign-ins", { preHandler: requireActor(), schema: { response: { 200: SignInsReply } } }, async (request) => {
    const actor = actorOf(request);
    const current = request.user.sid;
    const signIns = await activeSignIns(db, actor.userId, clock());
    return {
      sign_ins: signIns.map((s) => ({
        id: s.familyId,
        device: s.device,
        first_seen_at: s.firstSeenAt,
        last_seen_at: s.lastSeenAt,
        current: s.familyId === current,
      })),
    };
  });

  app.delete(
    "/auth/sign-ins/:id",
    { preHandler: requireActor(), schema: { params: SignInParams, response: { 204: NoContent } } },
    async (request, reply) => {
      const actor = actorOf(request);
      const now = clock();
      // Another user's sign-in is answered like one that does not exist: its id tells nobody anything.
      if (!(await ownsActiveSignIn(db, actor.userId, request.params.id, now))) refuse("sign_in_not_found");
      // Its refresh token stops working, and so do its access tokens (the guard asks familyEnded on each request).
      await revokeFamily(db, request.params.id, now);
      return reply.status(204).send(null);
    },
  );
};
