import type { FastifyBaseLogger, FastifyInstance, RawReplyDefaultExpression, RawRequestDefaultExpression, RawServerDefault } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";

/** A Fastify instance whose routes declare zod schemas (from contracts) for params, query, body and replies. */
export type ZodApp = FastifyInstance<
  RawServerDefault,
  RawRequestDefaultExpression,
  RawReplyDefaultExpression,
  FastifyBaseLogger,
  ZodTypeProvider
>;

/**
 * Routes of one area of the API, registered under /api/v1, given exactly what they use (`Deps`:
 * a pool, the command handlers they send to, a clock...), never the whole context.
 */
export type RoutePlugin<Deps> = (app: ZodApp, deps: Deps) => Promise<void>;
