import { setTimeout as sleep } from "node:timers/promises";
import type { FastifyInstance } from "fastify";
import { DateTime } from "luxon";
import type pg from "pg";
import type { BookingReply } from "@booking/contracts";
import type { EventStore } from "@booking/event-store";
import { findBooking } from "@booking/projections";
import type { CalendarCommands } from "../main/index.ts";
import type { TestPaymentProvider } from "../payments/index.ts";
import { RefundReactor } from "../refunds/index.ts";
import { call, type DemoAccount } from "./accounts.ts";
import { pickTime, workingDay, type DemoMarket } from "./history.ts";
import { CANCEL_REASON } from "./stories.ts";
import { UPCOMING_BOOKINGS, type UpcomingBooking } from "./upcoming-stories.ts";

// What is still to come, made now through the public API as people make it: a time the session's
// availability offers, the booking, the preparation answers, the test card's payment (so no hold
// lapses), and the expert's answer. Then the demo creator cancels a confirmed booking days ahead,
// and its refund is paid back through the refund reactor and the test provider.

export type UpcomingDeps = {
  db: pg.Pool;
  store: EventStore;
  calendar: CalendarCommands;
  payments: TestPaymentProvider;
  clock: () => string;
};

const TEST_CARD = "4242 4242 4242 4242";
const OPEN = new Set<BookingReply["status"]>(["pending", "time_proposed", "more_info_requested", "confirmed"]);

/** The creator's bookings that still hold their time, which a new one must not meet. */
async function takenBy(app: FastifyInstance, creator: DemoAccount) {
  const bookings = await call<BookingReply[]>(app, "GET", "/bookings/creator/me", undefined, creator.token);
  return bookings.filter((b) => OPEN.has(b.status)).map((b) => ({ start: b.scheduled_time, lengthMinutes: b.length_minutes }));
}

async function book(app: FastifyInstance, market: DemoMarket, plan: UpcomingBooking, nowMs: number): Promise<void> {
  const seeded = market.experts.get(plan.expert);
  const creator = market.creators.get(plan.creator);
  if (!seeded || !creator) throw new Error(`seed: no ${plan.expert} or ${plan.creator} in the demo`);
  const { expert, account } = seeded;
  const sessionId = seeded.sessionIds[plan.session]!;
  const lengthMinutes = expert.sessions[plan.session]!.length_minutes;
  const date = workingDay(DateTime.fromMillis(nowMs, { zone: expert.timezone }), plan.day);
  const { times } = await call<{ times: string[] }>(
    app,
    "GET",
    `/sessions/${sessionId}/availability?from=${date.toISODate()}&to=${date.toISODate()}`,
  );
  const start = pickTime(times, date, plan.hour, lengthMinutes, await takenBy(app, creator));
  if (!start) throw new Error(`seed: ${expert.first_name} offers no time on ${date.toISODate()}`);

  const { booking } = await call<{ booking: BookingReply }>(
    app,
    "POST",
    "/bookings",
    { session_id: sessionId, scheduled_time: start },
    creator.token,
  );
  const [prep_response_1, prep_response_2, prep_response_3] = plan.prep;
  await call(app, "PATCH", `/bookings/${booking.id}/prep`, { prep_response_1, prep_response_2, prep_response_3 }, creator.token);
  const intent = await call<{ clientSecret: string }>(app, "POST", "/stripe/test-intent", { bookingId: booking.id }, creator.token);
  await call(app, "POST", "/payments/test/confirm", { client_secret: intent.clientSecret, card_number: TEST_CARD }, creator.token);

  if (plan.state === "confirmed") await call(app, "PATCH", `/bookings/${booking.id}/status`, { status: "confirmed" }, account.token);
  if (plan.state === "time_proposed") {
    // The expert offers the next working day instead, inside their weekly hours.
    const next = workingDay(date, 1);
    const proposableUrl = `/bookings/${booking.id}/proposable-times?date=${next.toISODate()}`;
    const { times: proposable } = await call<{ times: string[] }>(app, "GET", proposableUrl, undefined, account.token);
    const at = (hhmm: string) => next.set({ hour: Number(hhmm.slice(0, 2)), minute: Number(hhmm.slice(3)) }).toMillis();
    const [open, close] = [at(expert.hours.start_local), at(expert.hours.end_local)];
    const inHours = proposable.filter((t) => Date.parse(t) >= open && Date.parse(t) + lengthMinutes * 60_000 <= close);
    const others = (await takenBy(app, creator)).filter((b) => b.start !== booking.scheduled_time);
    const proposed = pickTime(inHours, next, plan.proposeHour ?? plan.hour, lengthMinutes, others);
    if (!proposed) throw new Error(`seed: ${expert.first_name} can propose no time on ${next.toISODate()}`);
    await call(app, "PATCH", `/bookings/${booking.id}/schedule`, { scheduled_time: proposed }, account.token);
  }
}

/** The demo creator cancels; the refund is paid (by this pass, or by the process's own reactor if it gets there first). */
async function cancelWithRefund(app: FastifyInstance, deps: UpcomingDeps, creator: DemoAccount, bookingId: string): Promise<void> {
  await call(app, "PATCH", `/bookings/${bookingId}/status`, { status: "cancelled", reason: CANCEL_REASON }, creator.token);
  const { store, db, calendar, payments, clock } = deps;
  const reactor = new RefundReactor({ log: store, db, calendar, provider: payments, clock }, { warn: () => undefined });
  for (let tries = 0; tries < 100; tries++) {
    await reactor.runOnce();
    const row = await findBooking(deps.db, bookingId);
    if (row?.refund_state === "refunded") return;
    await sleep(100);
  }
  throw new Error(`seed: the refund of booking ${bookingId} was not paid`);
}

export async function seedUpcoming(app: FastifyInstance, deps: UpcomingDeps, market: DemoMarket, bookingToCancel: string): Promise<void> {
  const nowMs = Date.parse(deps.clock());
  for (const plan of UPCOMING_BOOKINGS) await book(app, market, plan, nowMs);
  const casey = market.creators.get("casey");
  if (!casey) throw new Error("seed: no demo creator");
  await cancelWithRefund(app, deps, casey, bookingToCancel);
}
