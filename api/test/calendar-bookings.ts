import { randomUUID } from "node:crypto";
import type { Actor, CalendarCommand } from "@booking/contracts";
import { calendarStream } from "@booking/engine";
import type { TestApi, TestUser } from "./harness.ts";

// Bookings made straight through the expert's calendar (as the routes would send them), for tests
// about what happens after booking: the expert's id is their user id, as for a real expert.

const PAYMENTS: Actor = { userId: "payments", role: "system" };
const EVERY_DAY = (["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"] as const).map((weekday) => ({
  weekday,
  start_local: "00:00",
  end_local: "23:30",
}));

export type ExpertCalendar = {
  expert: TestUser;
  /** Send a command on this expert's calendar and wait for the read models; throws on a refusal. */
  run: (command: CalendarCommand) => Promise<void>;
  /** A booking requested by `creator` at `scheduledTime` (60 minutes), not yet paid (paid through the payment routes or a webhook). */
  unpaidRequest: (creator: TestUser, scheduledTime: string, priceCents?: number, title?: string) => Promise<string>;
  /** A booking requested by `creator` at `scheduledTime` (60 minutes) and paid in full, awaiting the expert. */
  paidRequest: (creator: TestUser, scheduledTime: string, priceCents?: number, title?: string) => Promise<string>;
  /** A paid request the expert accepted. */
  confirmedBooking: (creator: TestUser, scheduledTime: string, priceCents?: number, title?: string) => Promise<string>;
};

export async function expertCalendar(api: TestApi, expert: TestUser): Promise<ExpertCalendar> {
  const expertId = expert.id;
  const asExpert: Actor = { userId: expert.id, role: "expert" };
  const run = async (command: CalendarCommand) => {
    const r = await api.ctx.calendar.handle(calendarStream(expertId), command, { actor: command.actor });
    if (!r.ok) throw new Error(`${command.type}: ${r.refusal.code}`);
    await api.ctx.projected(r.value);
  };
  await run({ type: "SetSchedule", expertId, actor: asExpert, schedule: { timezone: "UTC", slots: EVERY_DAY } });
  const unpaidRequest = async (creator: TestUser, scheduledTime: string, priceCents = 15_000, title = "Pricing review") => {
    const bookingId = `bk-${randomUUID()}`;
    await run({
      type: "RequestBooking",
      expertId,
      bookingId,
      actor: { userId: creator.id, role: "creator" },
      scheduledTime,
      session: {
        sessionId: `s-${randomUUID()}`,
        expertId,
        title,
        lengthMinutes: 60,
        priceCents,
        published: true,
        prepQuestions: ["Goal?"],
      },
      expertUserId: expert.id,
      expertVetting: "approved",
      creatorAcceptedTerms: true,
      creatorBookings: [],
      holdMinutes: 15,
    });
    return bookingId;
  };
  const paidRequest = async (creator: TestUser, scheduledTime: string, priceCents = 15_000, title = "Pricing review") => {
    const bookingId = await unpaidRequest(creator, scheduledTime, priceCents, title);
    const on = { expertId, bookingId };
    await run({ type: "RecordPayment", ...on, actor: PAYMENTS, paymentId: `pi-${bookingId}`, amountCents: priceCents, provider: "test" });
    return bookingId;
  };
  const confirmedBooking = async (...args: Parameters<typeof paidRequest>) => {
    const bookingId = await paidRequest(...args);
    await run({ type: "ConfirmBooking", expertId, bookingId, actor: asExpert });
    return bookingId;
  };
  return { expert, run, unpaidRequest, paidRequest, confirmedBooking };
}
