import type pg from "pg";
import { z } from "zod";
import { Id, PersonalExportReply } from "@booking/contracts";
import type { EventStore } from "@booking/event-store";
import { findUser } from "@booking/projections";
import { actorOf, refuse, requireActor } from "../http/index.ts";
import type { RoutePlugin } from "../http/index.ts";
import { personalExport } from "./personal-export.ts";

// Downloading what the product holds about you (issue 33.3): the person themselves, or an admin for
// them on request (the console's user page). A file to keep, never cached on the way.

export type PersonalDataRouteDeps = { db: pg.Pool; store: Pick<EventStore, "readStream">; clock: () => string };

export const personalDataRoutes: RoutePlugin<PersonalDataRouteDeps> = async (app, { db, store, clock }) => {
  const download = (userId: string, now: string) => ({
    headers: {
      "content-type": "application/json; charset=utf-8",
      "content-disposition": `attachment; filename="expert-sessions-data-${now.slice(0, 10)}.json"`,
      "cache-control": "private, no-store",
    },
    body: () => personalExport(db, store, userId, now),
  });

  app.get("/me/export", { onRequest: requireActor(), schema: { response: { 200: PersonalExportReply } } }, async (request, reply) => {
    const { headers, body } = download(actorOf(request).userId, clock());
    return reply.headers(headers).send(await body());
  });

  app.get(
    "/admin/users/:id/export",
    { onRequest: requireActor("admin"), schema: { params: z.strictObject({ id: Id }), response: { 200: PersonalExportReply } } },
    async (request, reply) => {
      if (!(await findUser(db, request.params.id))) refuse("not_found");
      const { headers, body } = download(request.params.id, clock());
      return reply.headers(headers).send(await body());
    },
  );
};
