import { z } from "zod";
import { isMeetingLink } from "@booking/contracts";
// The settings' own file, not the area's index: payouts/index.ts reaches mail/config.ts, which reads this file.
// eslint-disable-next-line no-restricted-imports
import { payoutsConfig } from "../payouts/config.ts";
// The same: the metrics area's settings file, not its index (which reaches the command handlers).
// eslint-disable-next-line no-restricted-imports
import { metricsConfig } from "../metrics/settings.ts";

// Every process validates its configuration at start and fails with one line naming the variable.

/** Jitsi Meet's public service: free, no account, a room for whoever has its (here unguessable) name. */
export const DEFAULT_MEETING_ROOM_URL_TEMPLATE = "https://meet.jit.si/{room}";

const url = (schemes: string[]) =>
  z.string().refine(
    (v) => {
      try {
        return schemes.includes(new URL(v).protocol.replace(/:$/, ""));
      } catch {
        return false;
      }
    },
    `must be a ${schemes.join(" or ")} URL`,
  );

const brokers = z
  .string()
  .transform((v) =>
    v
      .split(",")
      .map((b) => b.trim())
      .filter(Boolean),
  )
  .refine((list) => list.length > 0 && list.every((b) => /^[\w.-]+:\d{1,5}$/.test(b)), "must be host:port[,host:port...]");

/**
 * What opens personal data in the log when DATA_KEY_SECRET is not set, outside production: anyone with the source has
 * it, so it protects nothing. `npm start` generates a secret of its own into .data/ instead; production refuses to
 * start without one (REQUIRED_IN_PRODUCTION).
 */
export const DEVELOPMENT_DATA_KEY_SECRET = "development-only: not a secret, for stores that hold no real person's data";

export const storeConfig = z.object({
  DATABASE_URL: url(["postgres", "postgresql"]),
  ESDB_URL: url(["esdb", "esdb+discover"]).optional(),
  /**
   * The master secret of personal data in the log (issue 33.1): people's data keys are wrapped by a key made of it, and
   * snapshots sealed by another. Keep it as long as the data: without it nothing personal in the log can be read.
   */
  DATA_KEY_SECRET: z.string().min(32, "must be at least 32 characters").optional(),
  NODE_ENV: z.string().optional(),
});

/** Settings a process must be given in production (NODE_ENV=production, as the Docker image sets), where elsewhere a default will do. */
const REQUIRED_IN_PRODUCTION: Record<string, string> = {
  DATA_KEY_SECRET:
    "is required in production (NODE_ENV=production): 32 or more random characters (e.g. openssl rand -base64 48), " +
    "kept as long as the data, since nothing personal in the event log can be read without it",
};

/** One line on stderr when a process seals personal data under the development secret (outside production only). */
export function warnOfDevelopmentSecret(process_: string, config: { DATA_KEY_SECRET?: string | undefined }): void {
  if (dataKeySecretOf(config).development)
    console.error(
      `${process_}: DATA_KEY_SECRET is not set: personal data in the log is sealed under the development secret, which opens for anyone`,
    );
}

/** The secret personal data in the log is sealed under, and whether it is the development one (no real person's data belongs there). */
export function dataKeySecretOf(config: { DATA_KEY_SECRET?: string | undefined }): { secret: string; development: boolean } {
  return config.DATA_KEY_SECRET
    ? { secret: config.DATA_KEY_SECRET, development: false }
    : { secret: DEVELOPMENT_DATA_KEY_SECRET, development: true };
}

// The relay publishes the log as stored (envelopes): it opens nothing, so it needs no DATA_KEY_SECRET.
export const relayConfig = storeConfig.omit({ DATA_KEY_SECRET: true }).extend({
  KAFKA_BROKERS: brokers,
  KAFKA_TOPIC: z
    .string()
    .regex(/^[\w.-]{1,200}$/)
    .default("booking-events"),
  RELAY_BATCH_SIZE: z.coerce.number().int().min(1).max(10_000).default(500),
  ...metricsConfig.shape,
});

export const projectorConfig = storeConfig.extend({
  KAFKA_BROKERS: brokers.optional(),
  KAFKA_TOPIC: z
    .string()
    .regex(/^[\w.-]{1,200}$/)
    .default("booking-events"),
  PROJECTOR_GROUP: z.string().min(1).default("projector"),
  PROJECTOR_BATCH_SIZE: z.coerce.number().int().min(1).max(10_000).default(500),
  /** Its /readyz (on METRICS_PORT) fails while the read models are this many events behind. */
  READY_MAX_LAG_EVENTS: z.coerce.number().int().min(0).default(1000),
  ...metricsConfig.shape,
});

export type ConfigError = { variable: string; problem: string };

export function parseConfig<S extends z.ZodType>(
  schema: S,
  env: Record<string, string | undefined>,
): { ok: true; config: z.output<S> } | { ok: false; error: ConfigError } {
  const result = schema.safeParse(env);
  if (result.success) {
    const read = schema instanceof z.ZodObject ? (schema.shape as Record<string, unknown>) : {};
    const missing = Object.keys(REQUIRED_IN_PRODUCTION).find((v) => v in read && env.NODE_ENV === "production" && !env[v]);
    if (missing) return { ok: false, error: { variable: missing, problem: REQUIRED_IN_PRODUCTION[missing]! } };
    return { ok: true, config: result.data };
  }
  const issue = result.error.issues[0]!;
  const variable = String(issue.path[0] ?? "environment");
  const problem = issue.code === "invalid_type" && env[variable] === undefined ? "is required" : issue.message;
  return { ok: false, error: { variable, problem } };
}

/** Parse or exit with one clear line, e.g. `relay: configuration error: KAFKA_BROKERS is required`. */
export function loadConfig<S extends z.ZodType>(
  process_: string,
  schema: S,
  env: Record<string, string | undefined> = process.env,
): z.output<S> {
  const parsed = parseConfig(schema, env);
  if (parsed.ok) return parsed.config;
  console.error(`${process_}: configuration error: ${parsed.error.variable} ${parsed.error.problem}`);
  process.exit(78); // EX_CONFIG
}

export const apiConfig = storeConfig.extend({
  PORT: z.coerce.number().int().min(1).max(65_535).default(3000),
  HOST: z.string().default("0.0.0.0"),
  /** HS256 secret for access tokens; at least 32 characters. */
  JWT_SECRET: z.string().min(32, "must be at least 32 characters"),
  PUBLIC_URL: z.string().url().optional(),
  KAFKA_BROKERS: brokers.optional(),
  ADMIN_EMAIL: z.string().email().optional(),
  ADMIN_PASSWORD: z.string().min(8).optional(),
  /** Whether admins must turn on two-factor sign-in before the console's routes answer them (issue 33.4). */
  ADMIN_TWO_FACTOR: z.enum(["required", "optional"], { error: "must be required or optional" }).default("required"),
  STRIPE_SECRET_KEY: z.string().startsWith("sk_").optional(),
  STRIPE_WEBHOOK_SECRET: z.string().startsWith("whsec_").optional(),
  /** The Connect webhook endpoint's own secret (Stripe signs events on connected accounts with it); the same route takes both. */
  STRIPE_CONNECT_WEBHOOK_SECRET: z.string().startsWith("whsec_").optional(),
  STRIPE_PUBLISHABLE_KEY: z.string().startsWith("pk_").optional(),
  HOLD_MINUTES: z.coerce
    .number()
    .int()
    .min(1)
    .max(24 * 60)
    .default(15),
  MEDIA_DIR: z.string().default(".data/media"),
  /** How many proxies sit in front of the API (0: clients connect directly). */
  TRUST_PROXY: z.coerce.number().int().min(0).max(10).default(0),
  /** Attempts per minute and client address on signup, login, refresh and password change. */
  AUTH_RATE_LIMIT_MAX: z.coerce.number().int().min(1).max(10_000).default(20),
  /** Requests per 15 minutes and client address on the routes that mail a link (verify/resend, recover). */
  AUTH_MAIL_RATE_LIMIT_MAX: z.coerce.number().int().min(1).max(10_000).default(5),
  /** redis(s)://host:port: count the rate limits there; without it they are counted in Postgres (every API process sees them either way). */
  REDIS_URL: url(["redis", "rediss"]).optional(),
  /** smtp(s)://user:pass@host:port for outgoing mail; without it mail stays in the dev mailbox. */
  SMTP_URL: url(["smtp", "smtps"]).optional(),
  /** The From of every mail. */
  MAIL_FROM: z.string().min(3).optional(),
  /** Where the help page's contact form sends messages (default support@localhost, seen in the dev mailbox). */
  SUPPORT_EMAIL: z.string().email().optional(),
  /** Readiness fails while the projector is this many events behind. */
  READY_MAX_LAG_EVENTS: z.coerce.number().int().min(0).default(1000),
  /**
   * A video room per confirmed booking where its expert set no meeting link (issue 27.13): {room} is replaced by
   * the unguessable room name the confirmation recorded ({bookingId}, by the booking's id). Default: an open
   * Jitsi Meet room; empty: no rooms, a booking has a link only once its expert sets one.
   */
  // The seal of connected calendars' secrets (issue 32): 32 bytes, hex or base64. Absent: derived from JWT_SECRET.
  CALENDAR_SECRETS_KEY: z.string().min(43).optional(),
  // host:port pairs a calendar may be read from over plain http, private addresses included: for tests only.
  CALENDAR_FETCH_ALLOW_HTTP: z
    .string()
    .default("")
    .transform((s) =>
      s
        .split(",")
        .map((h) => h.trim())
        .filter((h) => h.length > 0),
    ),
  MEETING_ROOM_URL_TEMPLATE: z
    .string()
    .default(DEFAULT_MEETING_ROOM_URL_TEMPLATE)
    .refine(
      (v) =>
        v === "" ||
        ((v.includes("{room}") || v.includes("{bookingId}")) &&
          isMeetingLink(v.replaceAll("{room}", "room").replaceAll("{bookingId}", "booking"))),
      "must be an https URL with {room} or {bookingId} in it, or empty for no rooms",
    )
    .transform((v) => v || null),
  // The embedded default pays experts from the API process (with Kafka, the refunds process does).
  ...payoutsConfig.shape,
  ...metricsConfig.shape,
});
export type ApiConfig = z.output<typeof apiConfig>;
