import { randomUUID } from "node:crypto";
import type { CalendarCommand } from "@booking/contracts";
import { calendarStream } from "@booking/engine";
import type { TestApi, TestUser } from "./harness.ts";

// A booking paid with the test provider's card, through the API's own payment routes, so the
// `payments` row the refunds go back to is the one a real checkout writes.

export type PaidBooking = {
  bookingId: string;
  expertId: string;
  creator: TestUser;
  expert: TestUser;
  paymentId: string;
  priceCents: number;
};

const WEEKDAYS = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"] as const;

/** Days ahead at 10:00 UTC: inside the all-week 09:00-17:00 UTC schedule below. */
function dayAtTen(daysAhead: number): string {
  const d = new Date();
  d.setUTCDate(d.getUTCDate() + daysAhead);
  d.setUTCHours(10, 0, 0, 0);
  return d.toISOString();
}

/** Send a calendar command as its actor, and wait for the read models to show it. */
export async function run(api: TestApi, expertId: string, command: CalendarCommand): Promise<void> {
  const r = await api.ctx.calendar.handle(calendarStream(expertId), command, { actor: command.actor });
  if (!r.ok) throw new Error(`${command.type}: ${r.refusal.code}`);
  await api.ctx.projected(r.value);
}

/** A booking held for its creator, not paid yet, with the test provider's payment made for it (`clientSecret` pays it). */
export type HeldBooking = PaidBooking & { clientSecret: string; scheduledTime: string };

/** A fresh expert (so bookings never compete for a time) and a creator's booking, paid; `daysAhead` 3 keeps it beyond the full-refund notice. */
export async function paidBooking(api: TestApi, priceCents = 15_000, daysAhead = 3): Promise<PaidBooking> {
  const held = await heldBooking(api, priceCents, daysAhead);
  await payHeld(api, held);
  return {
    bookingId: held.bookingId,
    expertId: held.expertId,
    creator: held.creator,
    expert: held.expert,
    paymentId: held.paymentId,
    priceCents,
  };
}

/** Pay a held booking with the test card, through the API's route. */
export async function payHeld(api: TestApi, held: HeldBooking): Promise<void> {
  const body = { client_secret: held.clientSecret, card_number: "4242 4242 4242 4242" };
  const paid = await api.call("POST", "/api/v1/payments/test/confirm", { user: held.creator, body });
  if (paid.statusCode !== 200) throw new Error(`confirm: ${paid.statusCode} ${paid.body}`);
}

/** A fresh expert and a creator's booking, held for 15 minutes with its payment created but not made. */
export async function heldBooking(api: TestApi, priceCents = 15_000, daysAhead = 3): Promise<HeldBooking> {
  const expert = await api.user("expert");
  const creator = await api.user("creator");
  const expertId = `ex-${randomUUID()}`;
  const bookingId = `bk-${randomUUID()}`;
  await run(api, expertId, {
    type: "SetSchedule",
    expertId,
    actor: { userId: expert.id, role: "expert" },
    schedule: { timezone: "UTC", slots: WEEKDAYS.map((weekday) => ({ weekday, start_local: "09:00", end_local: "17:00" })) },
  });
  await run(api, expertId, {
    type: "RequestBooking",
    expertId,
    bookingId,
    actor: { userId: creator.id, role: "creator" },
    scheduledTime: dayAtTen(daysAhead),
    session: {
      sessionId: `s-${randomUUID()}`,
      expertId,
      title: "Growth strategy",
      lengthMinutes: 60,
      priceCents,
      published: true,
      prepQuestions: ["Goal?", "Now?", "Blocker?"],
    },
    expertUserId: expert.id,
    expertVetting: "approved",
    creatorAcceptedTerms: true,
    creatorBookings: [],
    holdMinutes: 15,
  });
  const intent = await api.call("POST", "/api/v1/stripe/test-intent", { user: creator, body: { bookingId } });
  if (intent.statusCode !== 200) throw new Error(`test-intent: ${intent.statusCode} ${intent.body}`);
  const { clientSecret, paymentId } = intent.json() as { clientSecret: string; paymentId: string };
  return { bookingId, expertId, creator, expert, paymentId, priceCents, clientSecret, scheduledTime: dayAtTen(daysAhead) };
}

/** The expert cancels: the policy owes everything paid back. */
export async function expertCancels(api: TestApi, b: PaidBooking): Promise<void> {
  await run(api, b.expertId, {
    type: "CancelBooking",
    expertId: b.expertId,
    bookingId: b.bookingId,
    actor: { userId: b.expert.id, role: "expert" },
    reason: "Travelling",
  });
}
