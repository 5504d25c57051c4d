import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { requireActor } from "../http/auth-guard.ts";
import type { RoutePlugin } from "../http/route-plugin.ts";
import { bookingEventsAdmin } from "./booking-events.ts";
import { bookingsAdmin } from "./bookings.ts";
import { earlyAccessAdmin } from "./early-access.ts";
import { eventsAdmin } from "./events.ts";
import { expertsAdmin } from "./experts.ts";
import { projectionsAdmin } from "./projections.ts";
import { sessionsAdmin } from "./sessions.ts";
import { termsAcceptancesAdmin } from "./terms-acceptances.ts";
import { usersAdmin } from "./users.ts";

const resources: RoutePlugin[] = [bookingsAdmin, bookingEventsAdmin, termsAcceptancesAdmin, usersAdmin, expertsAdmin, sessionsAdmin, eventsAdmin, projectionsAdmin, earlyAccessAdmin];

/**
 * The admin console's API under /admin (ra-data-simple-rest contract), for admins only. The
 * guard runs on request, before validation: a non-admin learns nothing about the routes' inputs.
 */
export const adminRoutes: RoutePlugin = async (app, ctx) => {
  await app.register(
    async (admin) => {
      admin.addHook("onRequest", requireActor("admin"));
      for (const resource of resources) await resource(admin.withTypeProvider<ZodTypeProvider>(), ctx);
    },
    { prefix: "/admin" },
  );
};
