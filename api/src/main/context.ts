import type pg from "pg";
import { calendarDecider, calendarSnapshots } from "@booking/engine";
import type { DataKeys, EventStore, SnapshotStore } from "@booking/event-store";
import { snapshotReadsCounted } from "../metrics/index.ts";
import { TracedCommandHandler } from "../tracing/index.ts";
import type { BookingFeed } from "../live-updates/index.ts";
import { commandHandlers, type CalendarCommands, type ExpertCommands, type SessionCommands, type TermsCommands } from "./commands.ts";
import type { ConversationCommands, PayoutCommands, ReviewCommands } from "./commands.ts";
import { SweepGate, CreatorBookingLock } from "../bookings/index.ts";
import { mailSettings, type MailSettings } from "../mail/index.ts";
import type { PaymentProvider } from "../payments/index.ts";
import { TestPayoutProvider, type PayoutProvider } from "../payouts/index.ts";
import type { StripeBalanceClient } from "../reconciliation/index.ts";
import { calendarFetch, calendarSecretsKey, secretBox, type SecretBox } from "../external-calendars/index.ts";
import { CALENDAR_FETCH_MAX_BYTES, CALENDAR_FETCH_TIMEOUT_MS } from "@booking/contracts";
import {
  appendedThrough,
  projectedThrough,
  waitForReadModels,
  type Projected,
  type ReadModelFeed,
  ReplyCache,
  type ReplyCacheOptions,
} from "../http/index.ts";

// The parts of one API process, built once (see `server.ts`, or per test). Only the composition
// root reads this whole: app.ts hands each route area an object of exactly what it declares.

export type AppContext = {
  /** The event log, personal fields sealed on the way in and opened on the way out (openPersonalDataLog, issue 33.1). */
  store: EventStore;
  /** People's data keys: `erase(userId)` destroys one, so everything of theirs in the log reads as erased from then on. */
  dataKeys: DataKeys;
  /** The calendars' snapshots: `forgetMentioning(userId)` deletes those that mention a person (a snapshot is only a shortcut). */
  snapshots: Pick<SnapshotStore, "forgetMentioning">;
  /** Read models and the API's own tables. */
  db: pg.Pool;
  clock: () => string;
  holdMinutes: number;
  mediaDir: string;
  jwtSecret: string;
  payments: PaymentProvider;
  /**
   * The signing secrets Stripe's webhooks may come with: the platform endpoint's and, apart, the Connect endpoint's (events
   * on experts' connected accounts: account.updated, payout.paid, payout.failed). Empty: webhooks are refused.
   */
  stripeWebhookSecrets: readonly string[];
  /** /readyz fails while the read models are more than this many events behind the log. */
  readyMaxLagEvents?: number;
  feed: BookingFeed | null;
  /** Where mail links point, who mail is from, SMTP or the dev mailbox. */
  mail: MailSettings;
  calendar: CalendarCommands;
  sessions: SessionCommands;
  experts: ExpertCommands;
  terms: TermsCommands;
  reviews: ReviewCommands;
  /** Each booking's conversation (issue 31.3). */
  conversations: ConversationCommands;
  /** Experts' payout accounts, released earnings, transfers and payouts. */
  payouts: PayoutCommands;
  /** Where experts are paid: Stripe Connect, or the test provider. */
  payoutProvider: PayoutProvider;
  /** Stripe's API for reconciliation (its balance transactions), when Stripe is configured. */
  stripeBalances?: StripeBalanceClient | null;
  /** Wait until the read models show a command's writes (read-your-writes); the cached listings are dropped then. */
  projected: Projected;
  /**
   * For a command whose reply is built from its decision: the reply names the position written and goes at once, and
   * the client's next reads wait for it (issue 34.1); fed from Kafka, as `projected`.
   */
  appended: Projected;
  /** Where the read models are fed from: the log (in this or another process) or Kafka. */
  readModelFeed: ReadModelFeed;
  /** Serialised replies of the experts listing and search, valid until the experts or sessions read model moves. */
  listings: ReplyCache;
  /** Serialises one creator's booking requests across processes (see ../bookings/creator-booking-lock.ts). */
  creatorBookings: CreatorBookingLock;
  /** Holds this process's sweepers back while the demo seed writes its past. */
  sweepGate: SweepGate;
  /** MEETING_ROOM_URL_TEMPLATE: a generated room per booking where the expert set no link (absent: none). */
  meetingRoomUrlTemplate?: string | null;
  /** SUPPORT_EMAIL: where the help page's contact form mails (absent: support@localhost). */
  supportAddress?: string;
  /** The expert's own calendars (issue 32): their secrets' seal, and the only fetch that may read a user-given address. */
  externalCalendars: { box: SecretBox; fetch: typeof globalThis.fetch };
};

export type ContextInput = Omit<
  AppContext,
  | "snapshots"
  | "calendar"
  | "sessions"
  | "experts"
  | "terms"
  | "reviews"
  | "conversations"
  | "payouts"
  | "payoutProvider"
  | "projected"
  | "appended"
  | "readModelFeed"
  | "listings"
  | "creatorBookings"
  | "sweepGate"
  | "externalCalendars"
  | "mail"
> & {
  /** Where experts are paid (default: the test provider over `db`). */
  payoutProvider?: PayoutProvider;
  /** Mail settings (default: links to http://localhost:3000, the dev mailbox). */
  mail?: MailSettings;
  /** Overrides of the listings cache's defaults (tests). */
  listingsCache?: Partial<Omit<ReplyCacheOptions, "readModels">>;
  /**
   * Snapshots of experts' calendars (e.g. `PostgresSnapshotStore.connect(store.pool)`): a cold
   * decision reads the calendar's snapshot and the events after it. Absent: it folds the whole stream.
   */
  snapshots?: SnapshotStore;
  /** A snapshot that could not be written (the decision stands; a later cold load folds more). */
  onSnapshotError?: (error: unknown) => void;
  /** Where the read models are fed from (default "log": a projector reading the store; "bus": projectors consuming Kafka). */
  readModelFeed?: ReadModelFeed;
  /** CALENDAR_SECRETS_KEY (absent: a key derived from the JWT secret). */
  calendarSecretsKey?: string;
  /** CALENDAR_FETCH_ALLOW_HTTP: host:port pairs a calendar may be read from over plain http, private addresses included (tests). */
  calendarPlainHosts?: readonly string[];
};

/**
 * The listing reads the experts, sessions and reviews read models. Writes through this instance show at
 * once; writes through another instance (or made by a separate projector) within 20 ms; a
 * change made to the tables by hand within 5 s.
 */
export const LISTINGS_CACHE: ReplyCacheOptions = {
  readModels: ["experts", "sessions", "reviews"],
  ttlMs: 5_000,
  maxStalenessMs: 20,
  maxEntries: 200,
  maxBytes: 16 * 1024 * 1024,
};

/** Where calendars are folded whole (no snapshot store): nothing to forget. */
const NO_SNAPSHOTS: AppContext["snapshots"] = { forgetMentioning: async () => 0 };

export function createContext(input: ContextInput): AppContext {
  const {
    listingsCache,
    mail,
    snapshots,
    onSnapshotError,
    readModelFeed,
    payoutProvider,
    calendarSecretsKey: key,
    calendarPlainHosts,
    ...rest
  } = input;
  const listings = new ReplyCache(input.db, { ...LISTINGS_CACHE, ...listingsCache });
  const ctx: AppContext = {
    ...rest,
    mail: mail ?? mailSettings({}),
    payoutProvider: payoutProvider ?? new TestPayoutProvider(input.db),
    ...commandHandlers(input.store, input.clock),
    ...(snapshots && {
      calendar: new TracedCommandHandler("calendar", input.store, calendarDecider, {
        clock: input.clock,
        snapshots: {
          store: snapshotReadsCounted(snapshots),
          codec: calendarSnapshots,
          ...(onSnapshotError && { onError: onSnapshotError }),
        },
      }),
    }),
    projected: projectedThrough(input.db, listings, readModelFeed),
    appended: appendedThrough(input.db, listings, readModelFeed),
    readModelFeed: readModelFeed ?? "log",
    listings,
    snapshots: snapshots ?? NO_SNAPSHOTS,
    creatorBookings: new CreatorBookingLock(
      input.db.options,
      readModelFeed === "bus"
        ? null
        : {
            shown: (position) => waitForReadModels(input.db, { position, events: [] }, "log"),
            head: () => input.store.headPosition(),
          },
    ),
    sweepGate: new SweepGate(),
    externalCalendars: {
      box: secretBox(calendarSecretsKey(key, input.jwtSecret)),
      fetch: calendarFetch({
        allowedPlainHosts: calendarPlainHosts ?? [],
        maxBytes: CALENDAR_FETCH_MAX_BYTES,
        timeoutMs: CALENDAR_FETCH_TIMEOUT_MS,
      }),
    },
  };
  // A calendar held folded in memory may hold an erased person's words (a meeting link, say), and a snapshot written
  // from it would keep them after their snapshots were forgotten: it is dropped whenever this process hears of an erasure.
  input.dataKeys.onErasure?.(() => ctx.calendar.forgetFoldedState());
  return ctx;
}
