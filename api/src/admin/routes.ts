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

type DepsOf<P> = P extends RoutePlugin<infer D> ? D : never;

/** What the console's resources use between them; each is handed only its own part below. */
export type AdminDeps = DepsOf<typeof bookingsAdmin> &
  DepsOf<typeof bookingEventsAdmin> &
  DepsOf<typeof termsAcceptancesAdmin> &
  DepsOf<typeof usersAdmin> &
  DepsOf<typeof expertsAdmin> &
  DepsOf<typeof sessionsAdmin> &
  DepsOf<typeof eventsAdmin> &
  DepsOf<typeof projectionsAdmin> &
  DepsOf<typeof earlyAccessAdmin>;

/**
 * The admin console's API under /admin (ra-data-simple-rest contract), for admins only. The
 * guard runs on request, before validation: a non-admin learns nothing about the routes' inputs.
 */
export const adminRoutes: RoutePlugin<AdminDeps> = async (app, deps) => {
  const { db, store } = deps;
  await app.register(
    async (plain) => {
      plain.addHook("onRequest", requireActor("admin"));
      const admin = plain.withTypeProvider<ZodTypeProvider>();
      await bookingsAdmin(admin, { db, store });
      await bookingEventsAdmin(admin, deps);
      await termsAcceptancesAdmin(admin, deps);
      await usersAdmin(admin, deps);
      await expertsAdmin(admin, deps);
      await sessionsAdmin(admin, deps);
      await eventsAdmin(admin, deps);
      await projectionsAdmin(admin, deps);
      await earlyAccessAdmin(admin, deps);
    },
    { prefix: "/admin" },
  );
};
