import type pg from "pg";
import { z } from "zod";
import { AdminUnmatchedRefundReply, UnmatchedRefundWhy } from "@booking/contracts";
import type { RoutePlugin } from "../http/index.ts";
import { unmatchedColumns, unmatchedFromPg } from "../refunds/index.ts";
import { IdText, listPage, ListQueryString, type ListSpec, oneOrMany, SqlWhere } from "./list-query.ts";

// Refunds the payment provider reported that the product did not record (not asked for, or more
// than asked for or paid): the console's list beside Refunds, so an admin sees money that went
// back outside the product (id = the provider's refund id).

const UnmatchedFilter = z
  .object({
    id: oneOrMany(IdText).optional(),
    why: oneOrMany(UnmatchedRefundWhy).optional(),
    booking_id: IdText.optional(),
  })
  .strict();

const spec: ListSpec<typeof UnmatchedFilter> = {
  resource: "unmatched-refunds",
  sortable: Object.fromEntries(["last_seen_at", "first_seen_at", "amount_cents", "why", "reports", "booking_id"].map((c) => [c, `u.${c}`])),
  defaultSort: ["last_seen_at", "DESC"],
  uniqueKey: "u.refund_id",
  filter: UnmatchedFilter,
};

function unmatchedWhere(f: z.output<typeof UnmatchedFilter>): SqlWhere {
  const w = new SqlWhere();
  if (f.id) w.add(`u.refund_id = ANY(${w.param(f.id)})`);
  if (f.why) w.add(`u.why = ANY(${w.param(f.why)})`);
  if (f.booking_id) w.add(`u.booking_id = ${w.param(f.booking_id)}`);
  return w;
}

export const unmatchedRefundsAdmin: RoutePlugin<{ db: pg.Pool }> = async (app, { db }) => {
  app.get(
    "/unmatched-refunds",
    { schema: { querystring: ListQueryString, response: { 200: z.array(AdminUnmatchedRefundReply) } } },
    async (request, reply) =>
      listPage(
        reply,
        db,
        spec,
        request.query,
        { select: unmatchedColumns, from: "unmatched_provider_refunds u", where: unmatchedWhere },
        unmatchedFromPg,
      ),
  );
};
