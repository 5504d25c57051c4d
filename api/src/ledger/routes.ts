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
} from "@booking/contracts";
import { bookingMoneyTrail, expertStatement, ledgerTrialBalance } from "@booking/projections";
import { ListQueryString, ListRange, MAX_LIST_ROWS, parseJsonParam, sendList } from "../admin/index.ts";
import { requireActor, type RoutePlugin } from "../http/index.ts";

// The ledger for admins (issue 29.5), from the ledger read model: the trial balance, a booking's
// money trail and an expert's statement of a month. The two lists answer as react-admin's
// ra-data-simple-rest expects (an array, `Content-Range`), in a fixed order: by currency and
// account (each currency's total last), and in the log's order.

export type LedgerRouteDeps = {
  /** The ledger read model. */
  db: pg.Pool;
};

const Filter = z.strictObject({ currency: Currency.optional() });

/** One page of a list in its fixed order (the lists are short: they are paged in memory), with `Content-Range`. */
function page<T extends { currency: Currency }>(reply: FastifyReply, resource: string, query: ListQueryString, all: readonly T[]): T[] {
  const filter = parseJsonParam(query.filter, Filter) ?? {};
  const lines = filter.currency ? all.filter((l) => l.currency === filter.currency) : all;
  const [start, end] = parseJsonParam(query.range, ListRange) ?? [0, MAX_LIST_ROWS - 1];
  const shown = lines.slice(start, start + Math.min(end - start + 1, MAX_LIST_ROWS));
  sendList(reply, resource, start, shown, lines.length);
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
        { schema: { querystring: ListQueryString, response: { 200: TrialBalanceReply } } },
        async (request, reply) => page(reply, "ledger/trial-balance", request.query, await ledgerTrialBalance(db)),
      );

      admin.get(
        "/bookings/:id/money-trail",
        { schema: { params: BookingParams, querystring: ListQueryString, response: { 200: MoneyTrailReply } } },
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
