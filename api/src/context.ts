import type pg from "pg";
import type { CalendarCommand, CalendarEvent, ExpertCommand, ExpertEvent, SessionCommand, SessionEvent, TermsCommand, TermsEvent } from "@booking/contracts";
import {
  CommandHandler,
  calendarDecider,
  expertDecider,
  sessionDecider,
  termsDecider,
  type CalendarState,
  type CommandResult,
  type EventStore,
  type ExpertState,
  type SessionState,
  type TermsState,
} from "@booking/engine";
import type { BookingFeed } from "./booking-feed.ts";
import { CreatorBookingLock } from "./creator-booking-lock.ts";
import type { PaymentProvider } from "./payments/provider.ts";
import { waitForReadModels } from "./read-your-writes.ts";
import { ReplyCache, type ReplyCacheOptions } from "./reply-cache.ts";

/** The command handlers, one per decider: each route names the ones it uses. */
export type CalendarCommands = CommandHandler<CalendarCommand, CalendarEvent, CalendarState>;
export type SessionCommands = CommandHandler<SessionCommand, SessionEvent, SessionState>;
export type ExpertCommands = CommandHandler<ExpertCommand, ExpertEvent, ExpertState>;
export type TermsCommands = CommandHandler<TermsCommand, TermsEvent, TermsState>;
/** Wait until the read models show a command's writes (read-your-writes). */
export type Projected = (result: CommandResult) => Promise<void>;

/** Everything a route needs; built once per process (see `server.ts`) or per test. */
export type AppContext = {
  store: EventStore;
  /** Read models and the API's own tables. */
  db: pg.Pool;
  clock: () => string;
  holdMinutes: number;
  mediaDir: string;
  jwtSecret: string;
  payments: PaymentProvider;
  stripeWebhookSecret: string | null;
  /** /readyz fails while the read models are more than this many events behind the log. */
  readyMaxLagEvents?: number;
  feed: BookingFeed | null;
  calendar: CalendarCommands;
  sessions: SessionCommands;
  experts: ExpertCommands;
  terms: TermsCommands;
  /** Wait until the read models show a command's writes (read-your-writes); the cached listings are dropped then. */
  projected: Projected;
  /** Serialised replies of the experts listing and search, valid until the experts or sessions read model moves. */
  listings: ReplyCache;
  /** Serialises one creator's booking requests across processes (see creator-booking-lock.ts). */
  creatorBookings: CreatorBookingLock;
};

export type ContextInput = Omit<AppContext, "calendar" | "sessions" | "experts" | "terms" | "projected" | "listings" | "creatorBookings"> & {
  /** Overrides of the listings cache's defaults (tests). */
  listingsCache?: Partial<Omit<ReplyCacheOptions, "readModels">>;
};

/**
 * The listing reads the experts and sessions read models. Writes through this instance show at
 * once; writes through another instance (or made by a separate projector) within 20 ms; a
 * change made to the tables by hand within 5 s.
 */
export const LISTINGS_CACHE: ReplyCacheOptions = { readModels: ["experts", "sessions"], ttlMs: 5_000, maxStalenessMs: 20, maxEntries: 200, maxBytes: 16 * 1024 * 1024 };

export function createContext(input: ContextInput): AppContext {
  const { listingsCache, ...rest } = input;
  const options = { clock: input.clock };
  const listings = new ReplyCache(input.db, { ...LISTINGS_CACHE, ...listingsCache });
  return {
    ...rest,
    calendar: new CommandHandler(input.store, calendarDecider, options),
    sessions: new CommandHandler(input.store, sessionDecider, options),
    experts: new CommandHandler(input.store, expertDecider, options),
    terms: new CommandHandler(input.store, termsDecider, options),
    projected: async (result) => {
      await waitForReadModels(input.db, result.position);
      if (result.events.length > 0) listings.invalidate();
    },
    listings,
    creatorBookings: new CreatorBookingLock(input.db.options),
  };
}
