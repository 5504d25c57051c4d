import type { FastifyReply } from "fastify";
import type pg from "pg";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import {
  Currency,
  ExpertIdParams,
  ExpertStatementReply,
  MoneyTrailReply,
  StatementMonthQuery,
  TrialBalanceReply,
  holdsUnstorableText,
} from "@booking/contracts";
import { bookingMoneyTrail, expertStatement, ledgerTrialBalance } from "@booking/projections";
import { refuse, requireActor, type RoutePlugin } from "../http/index.ts";

// The ledger for admins (issue 29.5), from the ledger read model: the trial balance, a booking's
// money trail and an expert's statement of a month. The two lists answer as react-admin's
// ra-data-simple-rest expects (an array, `Content-Range`), in a fixed order: by currency and
// account (each currency's total last), and in the log's order.

export type LedgerRouteDeps = {
  /** The ledger read model. */
  db: pg.Pool;
};

/** The most lines one page holds, whatever range is asked. */
const MAX_LINES = 1000;

/** ra-data-simple-rest's query: `range` pages the fixed order; `filter` may name a currency; `sort` is accepted and the order kept. */
const ListQuery = z.strictObject({
  sort: z.string().max(500).optional(),
  range: z.string().max(100).optional(),
  filter: z.string().max(2000).optional(),
});
type ListQuery = z.infer<typeof ListQuery>;

const Range = z.tuple([z.number().int().nonnegative(), z.number().int().nonnegative()]).refine(([start, end]) => end >= start);
const Filter = z.strictObject({ currency: Currency.optional() });

function jsonParam<S extends z.ZodType>(text: string | undefined, schema: S): z.output<S> | undefined {
  if (text === undefined) return undefined;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    refuse("invalid_request");
  }
  if (holdsUnstorableText(value)) refuse("invalid_request");
  const parsed = schema.safeParse(value);
  if (!parsed.success) refuse("invalid_request");
  return parsed.data;
}

/** One page of a list in its fixed order, with `Content-Range: {resource} {first}-{last}/{total}`. */
function page<T extends { currency: Currency }>(reply: FastifyReply, resource: string, query: ListQuery, all: readonly T[]): T[] {
  const filter = jsonParam(query.filter, Filter) ?? {};
  const lines = filter.currency ? all.filter((l) => l.currency === filter.currency) : all;
  const [start, end] = jsonParam(query.range, Range) ?? [0, MAX_LINES - 1];
  const shown = lines.slice(start, start + Math.min(end - start + 1, MAX_LINES));
  const range = shown.length ? `${start}-${start + shown.length - 1}` : "*";
  void reply.header("Content-Range", `${resource} ${range}/${lines.length}`).header("Access-Control-Expose-Headers", "Content-Range");
  return shown;
}

/** A booking id as the console sends it (the admin bookings list takes the same). */
const BookingParams = z.strictObject({ id: z.string().min(1).max(300) });

export const ledgerRoutes: RoutePlugin<LedgerRouteDeps> = async (app, { db }) => {
  await app.register(
    async (plain) => {
      plain.addHook("onRequest", requireActor("admin"));
      const admin = plain.withTypeProvider<ZodTypeProvider>();

      admin.get(
        "/ledger/trial-balance",
        { schema: { querystring: ListQuery, response: { 200: TrialBalanceReply } } },
        async (request, reply) => page(reply, "ledger/trial-balance", request.query, await ledgerTrialBalance(db)),
      );

      admin.get(
        "/bookings/:id/money-trail",
        { schema: { params: BookingParams, querystring: ListQuery, response: { 200: MoneyTrailReply } } },
        async (request, reply) => page(reply, "money-trail", request.query, await bookingMoneyTrail(db, request.params.id)),
      );

      admin.get(
        "/payout-accounts/:expertId/statement",
        { schema: { params: ExpertIdParams, querystring: StatementMonthQuery, response: { 200: ExpertStatementReply } } },
        async (request) => expertStatement(db, request.params.expertId, request.query.month),
      );
    },
    { prefix: "/admin" },
  );
};
