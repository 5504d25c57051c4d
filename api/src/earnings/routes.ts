import type pg from "pg";
import {
  EarningsMonthParams,
  ExpertEarningsMonthParams,
  ExpertEarningsReply,
  ExpertIdParams,
  ExpertMonthEarningsReply,
} from "@booking/contracts";
import { earningBookings, earningsBookingReply, expertEarnings, monthEarnings, monthEarningsByCurrency } from "@booking/projections";
import { actorOf, requireActor, requireExpertAccount, requireOwnExpert } from "../http/index.ts";
import type { RoutePlugin } from "../http/index.ts";

// An expert's earnings from the earnings read model: months with sessions (gross, refunds, net, the
// platform's fee and the expert's share), per currency, and a month's bookings. An expert sees only
// their own (their expert id is their user id); an admin sees any expert's.

export type EarningsRouteDeps = {
  /** The earnings read model. */
  db: pg.Pool;
};

const earnings = { response: { 200: ExpertEarningsReply } };
const monthOf = { response: { 200: ExpertMonthEarningsReply } };

export const earningsRoutes: RoutePlugin<EarningsRouteDeps> = async (app, { db }) => {
  const allMonths = async (expertId: string) => expertEarnings(expertId, await earningBookings(db, expertId));
  const oneMonth = async (expertId: string, month: string) => {
    const rows = await earningBookings(db, expertId, month);
    const byCurrency = monthEarningsByCurrency(month, rows);
    return { ...monthEarnings(month, rows), expert_id: expertId, by_currency: byCurrency, bookings: rows.map(earningsBookingReply) };
  };

  app.get("/experts/me/earnings", { onRequest: requireExpertAccount, schema: earnings }, async (request) =>
    allMonths(actorOf(request).userId),
  );

  app.get(
    "/experts/me/earnings/:month",
    { onRequest: requireExpertAccount, schema: { params: EarningsMonthParams, ...monthOf } },
    async (request) => oneMonth(actorOf(request).userId, request.params.month),
  );

  app.get(
    "/experts/:expertId/earnings",
    { onRequest: requireActor("expert"), schema: { params: ExpertIdParams, ...earnings } },
    async (request) => {
      requireOwnExpert(actorOf(request), request.params.expertId);
      return allMonths(request.params.expertId);
    },
  );

  app.get(
    "/experts/:expertId/earnings/:month",
    { onRequest: requireActor("expert"), schema: { params: ExpertEarningsMonthParams, ...monthOf } },
    async (request) => {
      requireOwnExpert(actorOf(request), request.params.expertId);
      return oneMonth(request.params.expertId, request.params.month);
    },
  );
};
