import type pg from "pg";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import type { EventStore } from "@booking/event-store";
import type { CalendarCommands, ExpertCommands, ReviewCommands } from "../main/index.ts";
import { requireActor } from "../http/index.ts";
import type { RoutePlugin, Projected } from "../http/index.ts";
import { devMailboxOn, type MailSettings } from "../mail/index.ts";
import { asOfAdmin } from "./as-of.ts";
import { bookingEventsAdmin } from "./booking-events.ts";
import { bookingsAdmin } from "./bookings.ts";
import { earlyAccessAdmin } from "./early-access.ts";
import { eventsAdmin } from "./events.ts";
import { expertsAdmin } from "./experts.ts";
import { applicationsAdmin } from "./applications.ts";
import { mailboxAdmin } from "./mailbox.ts";
import { projectionsAdmin } from "./projections.ts";
import { refundsAdmin } from "./refunds.ts";
import { reviewsAdmin } from "./reviews.ts";
import { sessionsAdmin } from "./sessions.ts";
import { termsAcceptancesAdmin } from "./terms-acceptances.ts";
import { unmatchedRefundsAdmin } from "./unmatched-refunds.ts";
import { usersAdmin } from "./users.ts";

/** What the console's resources use between them; each is handed only its own part below. */
export type AdminDeps = {
  /** The read models and the API's own tables. */
  db: pg.Pool;
  /** Booking timelines, the event browser and projection rebuilds read the log itself. */
  store: EventStore;
  /** Vetting an expert is a command, the only one the console sends. */
  experts: ExpertCommands;
  /** Hiding a review is a command too. */
  reviews: ReviewCommands;
  /** An admin's refund is a calendar command. */
  calendar: CalendarCommands;
  projected: Projected;
  /** The dev mailbox's routes exist only while no SMTP server is configured. */
  mail: MailSettings;
};

/**
 * The admin console's API under /admin (ra-data-simple-rest contract), for admins only. The
 * guard runs on request, before validation: a non-admin learns nothing about the routes' inputs.
 */
export const adminRoutes: RoutePlugin<AdminDeps> = async (app, { db, store, experts, reviews, calendar, projected, mail }) => {
  await app.register(
    async (plain) => {
      plain.addHook("onRequest", requireActor("admin"));
      const admin = plain.withTypeProvider<ZodTypeProvider>();
      await bookingsAdmin(admin, { db, store });
      await bookingEventsAdmin(admin, { db });
      await asOfAdmin(admin, { db, store });
      await termsAcceptancesAdmin(admin, { db });
      await usersAdmin(admin, { db });
      await expertsAdmin(admin, { db, experts, projected });
      await applicationsAdmin(admin, { db, store, experts, calendar, projected });
      await sessionsAdmin(admin, { db });
      await eventsAdmin(admin, { store });
      await projectionsAdmin(admin, { db, store });
      await earlyAccessAdmin(admin, { db });
      await reviewsAdmin(admin, { db, reviews, projected });
      await refundsAdmin(admin, { db, calendar, projected });
      await unmatchedRefundsAdmin(admin, { db });
      if (devMailboxOn(mail)) await mailboxAdmin(admin, { db, from: mail.from });
    },
    { prefix: "/admin" },
  );
};
