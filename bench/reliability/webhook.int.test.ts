import { randomUUID } from "node:crypto";
import Stripe from "stripe";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { CalendarCommand } from "@booking/contracts";
import { calendarStream } from "@booking/engine";
import { startTestApi, type TestApi } from "../../api/test/harness.ts";
import { elapsed, printFigure } from "./figure.ts";

// Stripe delivers at least once: the same signed payment_intent.succeeded arrives five times for
// each of 30 bookings, twice in a row and then three at once. Each booking must record exactly
// one payment: one PaymentSucceeded event, one succeeded payments row, paid once in the read
// models, and the expert's earnings counting it once.

const SECRET = "whsec_reliability_webhook";
const BOOKINGS = 30;
const PRICE = 12_500;

let api: TestApi;
beforeAll(async () => {
  api = await startTestApi({ stripeWebhookSecret: SECRET });
});
afterAll(async () => api?.close());

/** The n-th distinct whole hour from tomorrow 01:00 UTC on (20 a day). */
function hourSlot(n: number): string {
  const d = new Date();
  d.setUTCDate(d.getUTCDate() + 1 + Math.floor(n / 20));
  d.setUTCHours(1 + (n % 20), 0, 0, 0);
  return d.toISOString();
}

async function pendingBooking(expertId: string, expertUserId: string, creatorId: string, slot: number): Promise<string> {
  const bookingId = `bk-${randomUUID()}`;
  const command: CalendarCommand = {
    type: "RequestBooking",
    expertId,
    bookingId,
    actor: { userId: creatorId, role: "creator" },
    scheduledTime: hourSlot(slot),
    session: {
      sessionId: `s-${randomUUID()}`,
      expertId,
      title: "Growth strategy",
      lengthMinutes: 60,
      priceCents: PRICE,
      published: true,
      prepQuestions: ["Goal?"],
    },
    expertUserId,
    expertVetting: "approved",
    creatorAcceptedTerms: true,
    creatorBookings: [],
    holdMinutes: 15,
  };
  const r = await api.ctx.calendar.handle(calendarStream(expertId), command, { actor: command.actor });
  if (!r.ok) throw new Error(`booking refused: ${r.refusal.code}`);
  await api.ctx.projected(r.value);
  return bookingId;
}

function signed(bookingId: string, expertId: string) {
  const payload = JSON.stringify({
    id: `evt_${randomUUID().replace(/-/g, "")}`,
    object: "event",
    type: "payment_intent.succeeded",
    created: Math.floor(Date.now() / 1000),
    livemode: false,
    data: {
      object: {
        id: `pi_${randomUUID().replace(/-/g, "")}`,
        object: "payment_intent",
        amount: PRICE,
        amount_received: PRICE,
        currency: "usd",
        metadata: { bookingId, expertId },
      },
    },
  });
  return { payload, signature: Stripe.webhooks.generateTestHeaderString({ payload, secret: SECRET }) };
}

const deliver = (e: { payload: string; signature: string }) =>
  api.call("POST", "/api/v1/stripe/webhook", {
    body: e.payload,
    headers: { "content-type": "application/json", "stripe-signature": e.signature },
  });

describe("Stripe webhook delivered five times", () => {
  it(`${BOOKINGS} bookings, each payment delivered 5 times (2 in a row, then 3 at once): one payment each`, async () => {
    const t0 = performance.now();
    const expert = await api.user("expert");
    const creator = await api.user("creator");
    const expertId = `ex-${randomUUID()}`;
    const set = await api.ctx.calendar.handle(calendarStream(expertId), {
      type: "SetSchedule",
      expertId,
      actor: { userId: expert.id, role: "expert" },
      schedule: {
        timezone: "UTC",
        slots: (["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"] as const).map((weekday) => ({
          weekday,
          start_local: "00:00",
          end_local: "23:30",
        })),
      },
    });
    if (!set.ok) throw new Error(set.refusal.code);
    const statuses = new Map<number, number>();
    const count = (s: number) => statuses.set(s, (statuses.get(s) ?? 0) + 1);
    const bookings: string[] = [];
    for (let i = 0; i < BOOKINGS; i++) {
      const bookingId = await pendingBooking(expertId, expert.id, creator.id, i);
      bookings.push(bookingId);
      const event = signed(bookingId, expertId);
      count((await deliver(event)).statusCode);
      count((await deliver(event)).statusCode);
      for (const r of await Promise.all([deliver(event), deliver(event), deliver(event)])) count(r.statusCode);
    }
    const { events } = await api.ctx.store.readStream(calendarStream(expertId));
    const succeeded = new Map<string, number>();
    for (const e of events)
      if (e.type === "PaymentSucceeded")
        succeeded.set((e.data as { bookingId: string }).bookingId, (succeeded.get((e.data as { bookingId: string }).bookingId) ?? 0) + 1);
    const { rows: payments } = await api.ctx.db.query<{ booking_id: string; status: string }>(
      "SELECT booking_id, status FROM payments WHERE booking_id = ANY($1)",
      [bookings],
    );
    const { rows: read } = await api.ctx.db.query<{ booking_id: string; payment_state: string; paid_cents: string }>(
      "SELECT booking_id, payment_state, paid_cents FROM bookings WHERE booking_id = ANY($1)",
      [bookings],
    );
    const { rows: earnings } = await api.ctx.db.query<{ payments: string; paid: string }>(
      "SELECT sum(payments_count) AS payments, sum(paid_cents) AS paid FROM earnings WHERE expert_id = $1",
      [expertId],
    );
    printFigure("webhook delivered five times", {
      bookings: BOOKINGS,
      deliveries: BOOKINGS * 5,
      "delivery statuses": Object.fromEntries(statuses),
      "PaymentSucceeded events per booking": [...new Set(bookings.map((b) => succeeded.get(b) ?? 0))],
      "payments rows": payments.length,
      "read model: bookings paid once": read.filter((r) => r.payment_state === "paid" && Number(r.paid_cents) === PRICE).length,
      "earnings: payments counted, cents": `${earnings[0]?.payments}, ${earnings[0]?.paid} (expected ${BOOKINGS}, ${BOOKINGS * PRICE})`,
      time: elapsed(t0),
    });
    expect([...statuses.keys()]).toEqual([200]);
    expect(bookings.map((b) => succeeded.get(b) ?? 0)).toEqual(bookings.map(() => 1));
    expect(payments).toHaveLength(BOOKINGS);
    expect(payments.every((p) => p.status === "succeeded")).toBe(true);
    expect(read.filter((r) => r.payment_state === "paid" && Number(r.paid_cents) === PRICE)).toHaveLength(BOOKINGS);
    expect(Number(earnings[0]?.payments)).toBe(BOOKINGS);
    expect(Number(earnings[0]?.paid)).toBe(BOOKINGS * PRICE);
  });
});
