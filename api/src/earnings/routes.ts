import type pg from "pg";
import {
  EARNINGS_BOOKINGS_PAGE_DEFAULT,
  EarningsMonthParams,
  EarningsMonthQuery,
  ExpertEarningsMonthParams,
  ExpertEarningsReply,
  ExpertIdParams,
  ExpertMonthEarningsReply,
} from "@booking/contracts";
import {
  earningBookings,
  earningBookingsPage,
  earningsBookingReply,
  expertEarnings,
  monthEarnings,
  monthEarningsByCurrency,
} from "@booking/projections";
import { actorOf, bookingTimeCursor, nextPageLink, requireActor, requireExpertAccount, requireOwnExpert } from "../http/index.ts";
import type { RoutePlugin } from "../http/index.ts";

// An expert's earnings from the earnings read model: months with sessions (gross, refunds, net, the
// platform's fee and the expert's share), per currency, and a month's bookings. An expert sees only
// their own (their expert id is their user id); an admin sees any expert's. A month's bookings come a
// page at a time (issue 34.5): while more remain, a `Link: <…>; rel="next"` header names the next page;
// the month's totals are the whole month's on every page. The cursor (keyset) is opaque to the client.

export type EarningsRouteDeps = {
  /** The earnings read model. */
  db: pg.Pool;
};

const earnings = { response: { 200: ExpertEarningsReply } };
const monthOf = {
  querystring: EarningsMonthQuery,
  response: {
    200: ExpertMonthEarningsReply.describe(
      'The month\'s totals and one page of its bookings; a `Link: <…>; rel="next"` header names the next.',
    ),
  },
};

const cursor = bookingTimeCursor("scheduledTime", "earnings_cursor_invalid");

type MonthRequest = { url: string; query: EarningsMonthQuery };
type MonthReply = { header: (name: string, value: string) => unknown };

export const earningsRoutes: RoutePlugin<EarningsRouteDeps> = async (app, { db }) => {
  const allMonths = async (expertId: string) => expertEarnings(expertId, await earningBookings(db, expertId));
  const oneMonth = async (expertId: string, month: string, request: MonthRequest, reply: MonthReply) => {
    const limit = request.query.limit ?? EARNINGS_BOOKINGS_PAGE_DEFAULT;
    // The totals read the whole month (a month of one expert's sessions); the list is the page asked.
    const [rows, page] = await Promise.all([
      earningBookings(db, expertId, month),
      earningBookingsPage(db, expertId, month, { after: cursor.of(request.query.before), limit }),
    ]);
    // The next page's address drops this one's query: `before` and `limit` are all a page asks.
    if (page.next) reply.header("link", nextPageLink(request.url.split("?")[0]!, cursor.text(page.next), limit));
    const byCurrency = monthEarningsByCurrency(month, rows);
    return { ...monthEarnings(month, rows), expert_id: expertId, by_currency: byCurrency, bookings: page.rows.map(earningsBookingReply) };
  };

  app.get("/experts/me/earnings", { onRequest: requireExpertAccount, schema: earnings }, async (request) =>
    allMonths(actorOf(request).userId),
  );

  app.get(
    "/experts/me/earnings/:month",
    { onRequest: requireExpertAccount, schema: { params: EarningsMonthParams, ...monthOf } },
    async (request, reply) => oneMonth(actorOf(request).userId, request.params.month, request, reply),
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
    async (request, reply) => {
      requireOwnExpert(actorOf(request), request.params.expertId);
      return oneMonth(request.params.expertId, request.params.month, request, reply);
    },
  );
};
