import { randomUUID } from "node:crypto";
import { DateTime } from "luxon";
import type pg from "pg";
import type { Actor, CalendarCommand, Currency, ReviewCommand, SessionDefinition } from "@booking/contracts";
import { bookableStarts, busyPeriods, calendarStream, expertHours, reviewStream } from "@booking/engine";
import type { CommandResult } from "@booking/event-store";
import { creatorBookingFacts, findBooking, sessionRecord } from "@booking/projections";
import { recordPaymentSucceeded } from "../payments/index.ts";
import type { TestPaymentProvider } from "../payments/index.ts";
import type { Projected } from "../http/index.ts";
import type { DemoAccount } from "./accounts.ts";
import { WORKING_WEEK, type CreatorKey, type DemoExpert, type ExpertKey } from "./cast.ts";
import { BOOKING_TO_CANCEL, PAST_BOOKINGS, type PastBooking } from "./stories.ts";
import type { Timeline } from "./timeline.ts";
import { newMeetingRoom } from "../bookings/index.ts";
import { planPayouts } from "./payouts.ts";

// The demo's past through the command handlers, each decided at its own moment (timeline.ts):
// schedules set weeks ago, then bookings requested, paid with the test provider, prepared for and
// confirmed; once each session is over the system completes it, the expert adds notes, the creator
// reviews it and sometimes the expert replies. The commands are the ones the API's routes send.
// How the experts were paid for them plays on the same timeline (payouts.ts).

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
/** When the experts set their weekly hours: before anything in the demo's past. */
const SCHEDULES_SET_DAYS_AGO = 60;
/** The completion sweeper runs every minute: a session is completed within a minute of its end. */
const COMPLETED_AFTER_MS = 40_000;
const COMPLETION_SWEEPER: Actor = { userId: "completion-sweeper", role: "system" };

export type SeededExpert = { expert: DemoExpert; account: DemoAccount; sessionIds: string[] };
export type DemoMarket = { experts: ReadonlyMap<ExpertKey, SeededExpert>; creators: ReadonlyMap<CreatorKey, DemoAccount> };
export type HistoryDeps = { db: pg.Pool; projected: Projected; payments: TestPaymentProvider };
/** Once played: `shown` waits until the read models show it all; `bookingToCancel` is the booking the demo creator cancels. */
export type PlannedHistory = { shown: () => Promise<void>; bookingToCancel: () => string };

const asExpert = (a: DemoAccount): Actor => ({ userId: a.id, role: "expert" });
const asCreator = (a: DemoAccount): Actor => ({ userId: a.id, role: "creator" });

/** The day `day` days from `today` on the expert's calendar, off weekends (earlier for the past, later for what is to come). */
export function workingDay(today: DateTime, day: number): DateTime {
  let date = today.startOf("day").plus({ days: day });
  while (date.weekday > 5) date = date.plus({ days: day < 0 ? -1 : 1 });
  return date;
}

const overlaps = (a: number, aMinutes: number, b: number, bMinutes: number) => a < b + bMinutes * MINUTE && b < a + aMinutes * MINUTE;

/** The first time on `date` at or after `hour` (else the last before it) that the given times offer and that clashes with none of `taken`. */
export function pickTime(
  times: readonly string[],
  date: DateTime,
  hour: number,
  lengthMinutes: number,
  taken: readonly { start: string; lengthMinutes: number }[],
): string | null {
  const onDate = times.filter((t) => DateTime.fromISO(t, { zone: date.zone }).hasSame(date, "day"));
  const free = onDate.filter((t) => !taken.some((b) => overlaps(Date.parse(t), lengthMinutes, Date.parse(b.start), b.lengthMinutes)));
  return free.find((t) => DateTime.fromISO(t, { zone: date.zone }).hour >= hour) ?? free.at(-1) ?? null;
}

/**
 * Writes the read models have not been waited for yet. The past is written far faster when each
 * command does not wait on its own: the seed waits once, before it next reads a read model (as the
 * route it stands for would), which shows every write before it.
 */
class UnreadWrites {
  private results: CommandResult[] = [];
  constructor(private readonly projected: Projected) {}

  add(result: CommandResult): void {
    this.results.push(result);
  }

  async shown(): Promise<void> {
    const results = this.results;
    this.results = [];
    // The last write sits furthest in the log; a feed that tracks streams is given every stream written.
    const last = results.findLast((r) => r.position !== null);
    if (last) await this.projected({ ...last, events: results.flatMap((r) => r.events) });
  }
}

/** Plan the schedules and every past booking on the timeline; resolves, once played, to the booking the demo creator will cancel. */
export function planHistory(deps: HistoryDeps, market: DemoMarket, timeline: Timeline, nowMs: number): PlannedHistory {
  const { calendar, reviews } = timeline.commands;
  const written = new UnreadWrites(deps.projected);
  const decide = async (expertId: string, command: CalendarCommand): Promise<void> => {
    const result = await calendar.handle(calendarStream(expertId), command, { actor: command.actor });
    if (!result.ok) throw new Error(`seed: ${command.type} at ${timeline.now} refused: ${result.refusal.code}`);
    written.add(result.value);
  };
  const review = async (bookingId: string, command: ReviewCommand) => {
    const result = await reviews.handle(reviewStream(bookingId), command, { actor: command.actor });
    if (!result.ok) throw new Error(`seed: ${command.type} at ${timeline.now} refused: ${result.refusal.code}`);
    written.add(result.value);
  };
  /** A step of the past: one that would fall after the seed's "now" is a mistake in the stories. */
  const plan = (at: number, run: () => Promise<void>) => {
    if (at >= nowMs) throw new Error(`seed: a past step falls at ${new Date(at).toISOString()}, after now`);
    timeline.plan(at, run);
  };
  const payouts = planPayouts({ db: deps.db, record: (r) => written.add(r), plan }, market, timeline, nowMs);

  for (const { expert, account } of market.experts.values()) {
    const today = DateTime.fromMillis(nowMs, { zone: expert.timezone });
    const setAt = today.startOf("day").minus({ days: SCHEDULES_SET_DAYS_AGO }).set({ hour: 16 }).toMillis();
    const slots = WORKING_WEEK.map((weekday) => ({ weekday, ...expert.hours }));
    const schedule = { timezone: expert.timezone, slots };
    plan(setAt, () => decide(account.id, { type: "SetSchedule", expertId: account.id, actor: asExpert(account), schedule }));
  }

  let bookingToCancel: string | null = null;
  [...PAST_BOOKINGS, BOOKING_TO_CANCEL].forEach((story, index) => {
    const seeded = market.experts.get(story.expert);
    const creator = market.creators.get(story.creator);
    if (!seeded || !creator) throw new Error(`seed: no ${story.expert} or ${story.creator} in the demo`);
    const date = workingDay(DateTime.fromMillis(nowMs, { zone: seeded.expert.timezone }), story.day);
    // Requests come in at different times of day, as people's do.
    const requestedAt = date
      .minus({ days: story.lead })
      .set({ hour: 8 + ((index * 5) % 12), minute: (index * 17) % 60 })
      .toMillis();
    plan(requestedAt, async () => {
      const bookingId = await requestBooking(story, seeded, creator, date);
      if (story === BOOKING_TO_CANCEL) bookingToCancel = bookingId;
    });
  });

  /** The creator books at the first free time near the story's hour, pays with the test provider, answers the questions; the expert confirms. */
  async function requestBooking(story: PastBooking, seeded: SeededExpert, creator: DemoAccount, date: DateTime): Promise<string> {
    const expertId = seeded.account.id;
    const sessionId = seeded.sessionIds[story.session]!;
    // The creator's bookings so far are read from the read model, as the booking route does.
    await written.shown();
    const row = await sessionRecord(deps.db, sessionId);
    if (!row) throw new Error(`seed: session ${sessionId} not in the read model`);
    const now = timeline.now;
    const { state } = await calendar.load(calendarStream(expertId));
    const hours = expertHours(state);
    if (!hours) throw new Error(`seed: ${seeded.expert.first_name} has no schedule at ${now}`);
    const day = { from: date.startOf("day").toUTC().toISO()!, to: date.endOf("day").toUTC().toISO()! };
    const times = bookableStarts({ ...hours, lengthMinutes: row.length_minutes, busy: busyPeriods(state, now), now, ...day });
    const creatorFacts = await creatorBookingFacts(deps.db, creator.id, now);
    const start = pickTime(
      times,
      date,
      story.hour,
      row.length_minutes,
      creatorFacts.map((f) => ({ start: f.scheduledTime, lengthMinutes: f.lengthMinutes })),
    );
    if (!start) throw new Error(`seed: no time for ${seeded.expert.first_name} on ${date.toISODate()}`);
    const bookingId = randomUUID();
    const lengthMinutes = row.length_minutes as SessionDefinition["lengthMinutes"];
    const currency = row.currency as Currency;
    await decide(expertId, {
      type: "RequestBooking",
      expertId,
      bookingId,
      actor: asCreator(creator),
      scheduledTime: start,
      session: {
        sessionId,
        expertId,
        title: row.title,
        lengthMinutes,
        priceCents: row.price_cents,
        published: true,
        prepQuestions: row.prep_questions,
        currency,
      },
      expertUserId: expertId,
      expertVetting: "approved",
      creatorAcceptedTerms: true,
      creatorBookings: creatorFacts,
      holdMinutes: 15,
    });
    const requested = Date.parse(now);
    const on = { expertId, bookingId };
    plan(requested + 2 * MINUTE, async () => {
      // As the test card's checkout: the provider's payment row, then its success recorded on the calendar.
      await written.shown();
      const intent = await deps.payments.createIntent({
        bookingId,
        expertId,
        creatorId: creator.id,
        amountCents: row.price_cents,
        currency,
        description: row.title,
      });
      const payment = { paymentId: intent.paymentId, bookingId, expertId, amountCents: row.price_cents, provider: "test" };
      const paid = await recordPaymentSucceeded({ db: deps.db, calendar, projected: deps.projected }, payment);
      if (!paid.ok) throw new Error(`seed: payment at ${timeline.now} refused: ${paid.refusal.code}`);
    });
    plan(requested + 4 * MINUTE, () => decide(expertId, { type: "SubmitPrep", ...on, actor: asCreator(creator), answers: story.prep }));
    const startMs = Date.parse(start);
    plan(Math.min(requested + 5 * HOUR, startMs - HOUR), () =>
      decide(expertId, { type: "ConfirmBooking", ...on, actor: asExpert(seeded.account), meetingRoom: newMeetingRoom() }),
    );
    if (startMs < nowMs) planAfterSession(story, seeded.account, creator, on, startMs + row.length_minutes * MINUTE);
    return bookingId;
  }

  /** Completed by the system, the expert's notes, the creator's review and the expert's reply. */
  function planAfterSession(
    story: PastBooking,
    expert: DemoAccount,
    creator: DemoAccount,
    on: { expertId: string; bookingId: string },
    endMs: number,
  ): void {
    payouts.completedAt(endMs + COMPLETED_AFTER_MS);
    plan(endMs + COMPLETED_AFTER_MS, async () => {
      // The running process's own sweeper may have completed it already (a seed outlasting its first
      // minute): the same decision, made at its clock; nothing is left to do.
      const { state } = await calendar.load(calendarStream(on.expertId));
      if (state.bookings.get(on.bookingId)?.status === "completed") return;
      await decide(on.expertId, { type: "CompleteBooking", ...on, actor: COMPLETION_SWEEPER });
    });
    if (story.notes) {
      const notes = story.notes;
      plan(endMs + 90 * MINUTE, () => decide(on.expertId, { type: "AddNotes", ...on, actor: asExpert(expert), notes }));
    }
    const left = story.review;
    if (!left) return;
    // Reviews come a day or so after the session.
    const reviewedAt = endMs + (18 + (Math.abs(story.day) % 7) * 3) * HOUR;
    plan(reviewedAt, async () => {
      // The review route reads the booking's facts from the read model.
      await written.shown();
      const row = await findBooking(deps.db, on.bookingId);
      if (!row) throw new Error(`seed: booking ${on.bookingId} not in the read model`);
      const booking = {
        bookingId: row.booking_id,
        creatorId: row.creator_id,
        expertId: row.expert_id,
        expertUserId: row.expert_user_id,
        status: row.status,
      };
      const { rating, text } = left;
      await review(on.bookingId, {
        type: "LeaveReview",
        bookingId: on.bookingId,
        actor: asCreator(creator),
        reviewId: randomUUID(),
        booking,
        rating,
        text,
      });
      const reply = left.reply;
      if (!reply) return;
      const replied: ReviewCommand = { type: "ReplyToReview", bookingId: on.bookingId, actor: asExpert(expert), booking, text: reply };
      plan(reviewedAt + 26 * HOUR, () => review(on.bookingId, replied));
    });
  }

  return {
    shown: () => written.shown(),
    bookingToCancel: () => {
      if (!bookingToCancel) throw new Error("seed: the booking to cancel was not made");
      return bookingToCancel;
    },
  };
}
