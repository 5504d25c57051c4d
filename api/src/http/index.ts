// What other areas use of http/: they import it from here, never from its files (eslint.config.js).
// Written by issue 28's layout script from the imports of the day; add an export when another area needs one.

export { Refused, installErrorHandling, refuse, valueOf } from "./errors.ts";
export { idempotencyKeyOf } from "./idempotency.ts";
export { installRequestLog, logDestination, loggerOptions, pinoOptions } from "./logging.ts";
export type { LogDestination } from "./logging.ts";
export { rateLimitCounters, rateLimitMigrations } from "./rate-limit-store.ts";
export { ReplyCache, acceptsGzip, gzipOnce } from "./reply-cache.ts";
export type { ReplyCacheOptions } from "./reply-cache.ts";
export type { RoutePlugin, ZodApp } from "./route-plugin.ts";
export { installSecurityHeaders } from "./security-headers.ts";
export { ACCESS_TOKEN_SECONDS, actorOf, installAuthGuard, requireActor } from "./auth-guard.ts";
export type { AccessClaims } from "./auth-guard.ts";
export { appendedThrough, projectedThrough, readModelsAt, waitForReadModels } from "./read-your-writes.ts";
export { installConsistencyPosition } from "./consistency-position.ts";
export { nextPageLink } from "./next-page-link.ts";
export { bookingTimeCursor } from "./page-cursor.ts";
export type { Projected, ReadModelFeed } from "./read-your-writes.ts";
export { boundaryValidatorCompiler } from "./validation.ts";
export { commandActor, requireCurrentTerms, requireExpertAccount, requireExpertProfile, requireOwnExpert } from "./guards.ts";
