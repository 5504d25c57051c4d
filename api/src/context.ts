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
import type { PaymentProvider } from "./payments/provider.ts";
import { waitForReadModels } from "./read-your-writes.ts";

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
  calendar: CommandHandler<CalendarCommand, CalendarEvent, CalendarState>;
  sessions: CommandHandler<SessionCommand, SessionEvent, SessionState>;
  experts: CommandHandler<ExpertCommand, ExpertEvent, ExpertState>;
  terms: CommandHandler<TermsCommand, TermsEvent, TermsState>;
  /** Wait until the read models show a command's writes (read-your-writes). */
  projected: (result: CommandResult) => Promise<void>;
};

export type ContextInput = Omit<AppContext, "calendar" | "sessions" | "experts" | "terms" | "projected">;

export function createContext(input: ContextInput): AppContext {
  const options = { clock: input.clock };
  return {
    ...input,
    calendar: new CommandHandler(input.store, calendarDecider, options),
    sessions: new CommandHandler(input.store, sessionDecider, options),
    experts: new CommandHandler(input.store, expertDecider, options),
    terms: new CommandHandler(input.store, termsDecider, options),
    projected: async (result) => {
      await waitForReadModels(input.db, result.position);
    },
  };
}
