import type pg from "pg";
import { z } from "zod";
import { BookingIdParams, Id, ReceiptsReply, isValidTimezone } from "@booking/contracts";
import { findBooking, findUser } from "@booking/projections";
import { actorOf, refuse, requireActor } from "../http/index.ts";
import type { RoutePlugin } from "../http/index.ts";
import { receiptPdf, type ReaderZone } from "./receipt-pdf.ts";
import { receiptsOf } from "./receipts.ts";

// A creator's receipts for a booking (issue 29.7): the list, and each one as a PDF. Only the
// booking's creator (who paid) and an admin see them; anyone else, the expert included, is told
// there is no such booking, as the bookings routes tell them.

export type ReceiptRouteDeps = {
  /** The bookings, booking_events and users read models. */
  db: pg.Pool;
};

const ReceiptFileParams = z.strictObject({ bookingId: Id, file: z.string().regex(/^[\w-]{1,100}\.pdf$/, { error: "not_found" }) });
const ReceiptQuery = z.object({ tz: z.string().max(100).optional() });

type SignedIn = ReturnType<typeof actorOf>;

async function receiptBooking(db: pg.Pool, actor: SignedIn, bookingId: string) {
  const row = await findBooking(db, bookingId);
  if (!row || (actor.role !== "admin" && actor.userId !== row.creator_id)) refuse("booking_not_found");
  return row;
}

/** The reader's zone: their account's, else the `tz` asked for, else UTC. */
async function readerZone(db: pg.Pool, userId: string, asked: string | undefined): Promise<ReaderZone> {
  const stored = (await findUser(db, userId))?.timezone;
  if (stored && isValidTimezone(stored)) return { zone: stored, source: "account" };
  if (asked && isValidTimezone(asked)) return { zone: asked, source: "query" };
  return { zone: "UTC", source: "default" };
}

export const receiptRoutes: RoutePlugin<ReceiptRouteDeps> = async (app, { db }) => {
  app.get(
    "/bookings/:bookingId/receipts",
    { onRequest: requireActor(), schema: { params: BookingIdParams, response: { 200: ReceiptsReply } } },
    async (request) => {
      const booking = await receiptBooking(db, actorOf(request), request.params.bookingId);
      const receipts = await receiptsOf(db, booking);
      return {
        receipts: receipts.map((r) => ({
          kind: r.kind,
          key: r.key,
          amount_cents: r.amountCents,
          currency: r.currency,
          at: r.at,
          url: `/api/v1/bookings/${encodeURIComponent(r.bookingId)}/receipts/${encodeURIComponent(r.key)}.pdf`,
        })),
      };
    },
  );

  app.get(
    "/bookings/:bookingId/receipts/:file",
    { onRequest: requireActor(), schema: { params: ReceiptFileParams, querystring: ReceiptQuery } },
    async (request, reply) => {
      const actor = actorOf(request);
      const booking = await receiptBooking(db, actor, request.params.bookingId);
      const key = request.params.file.replace(/\.pdf$/, "");
      const receipt = (await receiptsOf(db, booking)).find((r) => r.key === key);
      if (!receipt) refuse("not_found");
      const pdf = await receiptPdf(receipt, await readerZone(db, actor.userId, request.query.tz));
      return reply
        .type("application/pdf")
        .header("content-disposition", `attachment; filename="${receipt.kind}-receipt-${key}.pdf"`)
        .header("cache-control", "private, no-store")
        .send(pdf);
    },
  );
};
