import { randomUUID } from "node:crypto";
import type { Actor, CalendarCommand, DomainEvent, ExpertCommand, SessionCommand, TermsCommand } from "@booking/contracts";
import {
  calendarDecider,
  calendarStream,
  expertDecider,
  expertStream,
  sessionDecider,
  sessionStream,
  termsDecider,
  termsStream,
} from "@booking/engine";
import { reviewDecider, reviewStream } from "@booking/engine";
import { CommandHandler, type EventStore } from "@booking/event-store";

// Workloads for the projection suites: a scenario driven through the real command handlers, and
// a fast synthetic history of valid events for volume.

const MONDAY = Date.parse("2026-03-02T08:00:00.000Z");
const at = (minutes: number) => new Date(MONDAY + minutes * 60_000).toISOString();
const ADMIN: Actor = { userId: "admin-1", role: "admin" };
const SYSTEM: Actor = { userId: "payments", role: "system" };

export type Handlers = ReturnType<typeof handlersFor>;

export function handlersFor(store: EventStore) {
  return {
    calendar: new CommandHandler(store, calendarDecider),
    session: new CommandHandler(store, sessionDecider),
    expert: new CommandHandler(store, expertDecider),
    terms: new CommandHandler(store, termsDecider),
    review: new CommandHandler(store, reviewDecider),
  };
}

async function must<T extends { ok: boolean }>(p: Promise<T>, what: string): Promise<T> {
  const r = await p;
  if (!r.ok) throw new Error(`${what} was refused: ${JSON.stringify(r)}`);
  return r;
}

/** One expert's life: profile, vetting, sessions, schedule, and bookings that end every way a booking can. */
export async function expertScenario(store: EventStore, h: Handlers, n: number): Promise<void> {
  const expertUser: Actor = { userId: `ux-${n}`, role: "expert" };
  const creator: Actor = { userId: `c-${n}`, role: "creator" };
  const expertId = `ex-${n}`;
  const sessionId = `s-${n}`;
  const meta = (minutes: number, actor: Actor) => ({ now: at(minutes), actor });

  await store.append(
    `user-${expertUser.userId}`,
    [
      {
        type: "UserRegistered",
        data: { userId: expertUser.userId, email: `expert${n}@example.com`, role: "expert", firstName: `Ex${n}`, lastName: "Pert" },
        metadata: { at: at(0) },
      },
    ],
    "no_stream",
  );
  await store.append(
    `user-${creator.userId}`,
    [
      {
        type: "UserRegistered",
        data: { userId: creator.userId, email: `creator${n}@example.com`, role: "creator", firstName: `Cre${n}`, lastName: "Ator" },
        metadata: { at: at(0) },
      },
    ],
    "no_stream",
  );

  const terms: TermsCommand = {
    type: "AcceptTerms",
    userId: creator.userId,
    actor: creator,
    versionId: "2025-01",
    currentVersionId: "2025-01",
  };
  await must(h.terms.handle(termsStream(creator.userId), terms, meta(1, creator)), "accept terms");

  const profile = {
    firstName: `Ex${n}`,
    lastName: "Pert",
    title: "Brand strategist",
    bio: "Ten years of brand deals.\n\nAsk me anything.",
    tags: ["brand", "growth"],
    profileImage: null,
  };
  const save = (published: boolean): ExpertCommand => ({
    type: "SaveExpertProfile",
    expertId,
    actor: expertUser,
    userId: expertUser.userId,
    profile,
    published,
  });
  await must(h.expert.handle(expertStream(expertId), save(false), meta(2, expertUser)), "save profile");
  await must(h.expert.handle(expertStream(expertId), save(true), meta(3, expertUser)), "publish profile");
  await must(h.expert.handle(expertStream(expertId), { type: "VerifyExpert", expertId, actor: ADMIN }, meta(4, ADMIN)), "verify");

  const definition = {
    title: "Brand deal review",
    description: "We review your deck",
    priceCents: 15_000 + n,
    lengthMinutes: 60 as const,
    prepQuestions: ["Goal?", "Audience?", "Blockers?"],
    sessionDetails: "",
    idealFor: ["podcasters"],
  };
  const sessionCmd = (c: Omit<SessionCommand, "sessionId" | "expertId" | "actor">): SessionCommand =>
    ({ ...c, sessionId, expertId, actor: expertUser }) as SessionCommand;
  await must(
    h.session.handle(
      sessionStream(sessionId),
      sessionCmd({ type: "CreateSession", definition, status: "draft" } as never),
      meta(5, expertUser),
    ),
    "create session",
  );
  await must(
    h.session.handle(sessionStream(sessionId), sessionCmd({ type: "PublishSession" } as never), meta(6, expertUser)),
    "publish session",
  );
  const draftId = `s-${n}-draft`;
  await must(
    h.session.handle(
      sessionStream(draftId),
      {
        type: "CreateSession",
        sessionId: draftId,
        expertId,
        actor: expertUser,
        definition: { ...definition, lengthMinutes: 30 },
        status: "draft",
      },
      meta(7, expertUser),
    ),
    "draft session",
  );
  await must(
    h.session.handle(
      sessionStream(draftId),
      { type: "DeleteSession", sessionId: draftId, expertId, actor: expertUser },
      meta(8, expertUser),
    ),
    "delete session",
  );

  const cal = (c: { type: CalendarCommand["type"] } & Record<string, unknown>, minutes: number, actor: Actor) =>
    must(h.calendar.handle(calendarStream(expertId), { ...c, expertId } as unknown as CalendarCommand, meta(minutes, actor)), c.type);
  await cal(
    {
      type: "SetSchedule",
      actor: expertUser,
      schedule: {
        timezone: "Europe/London",
        slots: ["monday", "tuesday", "wednesday", "thursday", "friday"].map((weekday) => ({
          weekday: weekday as "monday",
          start_local: "09:00",
          end_local: "17:00",
        })),
      },
    },
    9,
    expertUser,
  );
  const facts = {
    session: {
      sessionId,
      expertId,
      title: definition.title,
      lengthMinutes: 60 as const,
      priceCents: definition.priceCents,
      published: true,
      prepQuestions: definition.prepQuestions,
    },
    expertUserId: expertUser.userId,
    expertVetting: "approved",
    creatorAcceptedTerms: true,
    creatorBookings: [],
    holdMinutes: 15,
  };
  const book = (bookingId: string, scheduledTime: string, minutes: number) =>
    cal({ type: "RequestBooking", bookingId, actor: creator, scheduledTime, ...facts } as never, minutes, creator);
  const on = (bookingId: string) => ({ bookingId });

  // Confirmed, held, completed, with notes.
  const b1 = `b-${n}-1`;
  await book(b1, "2026-03-03T10:00:00.000Z", 10);
  await cal(
    { type: "RecordPayment", ...on(b1), actor: SYSTEM, paymentId: `pi-${n}-1`, amountCents: definition.priceCents, provider: "test" },
    11,
    SYSTEM,
  );
  await cal(
    { type: "RecordPayment", ...on(b1), actor: SYSTEM, paymentId: `pi-${n}-1`, amountCents: definition.priceCents, provider: "test" },
    11,
    SYSTEM,
  ); // webhook redelivered
  await cal({ type: "SubmitPrep", ...on(b1), actor: creator, answers: ["Grow", "10k", "Time"] }, 12, creator);
  await cal({ type: "ConfirmBooking", ...on(b1), actor: expertUser }, 13, expertUser);
  await cal({ type: "CompleteBooking", ...on(b1), actor: expertUser }, 27 * 60 + 60, expertUser);
  await cal(
    {
      type: "AddNotes",
      ...on(b1),
      actor: expertUser,
      notes: {
        summary: "Strong start",
        recap: "We reviewed the deck",
        takeaways: ["Lead with numbers"],
        suggestedActions: ["Email three brands"],
      },
    },
    27 * 60 + 70,
    expertUser,
  );
  // Reviewed by its creator, edited, and replied to by the expert (the review's own stream).
  const reviewed = { bookingId: b1, creatorId: creator.userId, expertId, expertUserId: expertUser.userId, status: "completed" as const };
  await must(
    h.review.handle(
      reviewStream(b1),
      { type: "LeaveReview", bookingId: b1, actor: creator, reviewId: `r-${n}-1`, booking: reviewed, rating: 5, text: "Clear next steps" },
      meta(28 * 60, creator),
    ),
    "leave review",
  );
  await must(
    h.review.handle(
      reviewStream(b1),
      { type: "EditReview", bookingId: b1, actor: creator, rating: 4, text: "Clear next steps, a bit fast" },
      meta(28 * 60 + 5, creator),
    ),
    "edit review",
  );
  await must(
    h.review.handle(
      reviewStream(b1),
      { type: "ReplyToReview", bookingId: b1, actor: expertUser, booking: reviewed, text: "Thanks!" },
      meta(28 * 60 + 10, expertUser),
    ),
    "reply to review",
  );

  // More info, answered, another time proposed and accepted.
  const b2 = `b-${n}-2`;
  await book(b2, "2026-03-04T10:00:00.000Z", 20);
  await cal(
    { type: "RecordPayment", ...on(b2), actor: SYSTEM, paymentId: `pi-${n}-2`, amountCents: definition.priceCents, provider: "test" },
    21,
    SYSTEM,
  );
  await cal({ type: "RequestInfo", ...on(b2), actor: expertUser, note: "Which brands?" }, 22, expertUser);
  await cal({ type: "SubmitPrep", ...on(b2), actor: creator, answers: ["Nike", "Adidas", "Puma"] }, 23, creator);
  await cal({ type: "ProposeTime", ...on(b2), actor: expertUser, scheduledTime: "2026-03-05T14:00:00.000Z" }, 24, expertUser);
  await cal({ type: "ConfirmBooking", ...on(b2), actor: creator }, 25, creator);

  // Paid, then cancelled by the creator: a refund is due.
  const b3 = `b-${n}-3`;
  await book(b3, "2026-03-06T11:00:00.000Z", 30);
  await cal(
    { type: "RecordPayment", ...on(b3), actor: SYSTEM, paymentId: `pi-${n}-3`, amountCents: definition.priceCents, provider: "test" },
    31,
    SYSTEM,
  );
  await cal({ type: "CancelBooking", ...on(b3), actor: creator, reason: "Double-booked myself" }, 32, creator);

  // Never paid: the hold expires.
  const b4 = `b-${n}-4`;
  await book(b4, "2026-03-09T09:00:00.000Z", 40);
  await cal({ type: "ExpireHold", ...on(b4), actor: SYSTEM }, 56, SYSTEM);
}

/**
 * A synthetic history of valid events, appended stream by stream in large batches: volume for
 * replay and crash tests without the cost of deciding each command.
 */
export function syntheticHistory(n: number, minutes = 0): { streamId: string; events: DomainEvent[] }[] {
  const expertId = `sx-${n}-${randomUUID().slice(0, 8)}`;
  const creatorId = `sc-${n}`;
  const sessionId = `ss-${n}-${expertId}`;
  const bookings: DomainEvent[] = [];
  for (let k = 0; k < 4; k++) {
    const bookingId = `sb-${expertId}-${k}`;
    bookings.push(
      {
        type: "BookingRequested",
        data: {
          bookingId,
          expertId,
          expertUserId: `su-${n}`,
          creatorId,
          sessionId,
          sessionTitle: "Synthetic",
          lengthMinutes: 60,
          priceCents: 9_900,
          prepQuestions: ["Why?"],
          scheduledTime: at(1440 + k * 120),
          heldUntil: at(minutes + 15),
        },
      },
      { type: "PaymentSucceeded", data: { bookingId, paymentId: `sp-${bookingId}`, amountCents: 9_900, provider: "test" } },
      { type: "PrepSubmitted", data: { bookingId, answers: ["a", "b", "c"] } },
      k % 2
        ? { type: "Cancelled", data: { bookingId, by: "creator", reason: "", refundCents: 9_900 } }
        : { type: "Confirmed", data: { bookingId, by: "expert" } },
    );
  }
  return [
    {
      streamId: `expert-${expertId}`,
      events: [
        {
          type: "ExpertProfileSaved",
          data: {
            expertId,
            userId: `su-${n}`,
            slug: `synthetic-${expertId}`,
            profile: { firstName: "Syn", lastName: `Thetic ${n}`, title: "Tester", bio: null, tags: ["load"], profileImage: null },
            published: true,
          },
        },
      ],
    },
    {
      streamId: `session-${sessionId}`,
      events: [
        {
          type: "SessionCreated",
          data: {
            sessionId,
            expertId,
            status: "published",
            definition: {
              title: "Synthetic",
              description: "",
              priceCents: 9_900,
              lengthMinutes: 60,
              prepQuestions: ["Why?"],
              sessionDetails: "",
              idealFor: [],
            },
          },
        },
      ],
    },
    {
      streamId: `calendar-${expertId}`,
      events: [
        {
          type: "ScheduleSet",
          data: { expertId, timezone: "UTC", slots: [{ weekday: "monday", start_local: "09:00", end_local: "17:00" }] },
        },
        ...bookings,
      ],
    },
  ];
}

/** Append synthetic histories until about `count` events are written. */
export async function appendSynthetic(store: EventStore, count: number, startAt = 0): Promise<number> {
  let written = 0;
  for (let n = startAt; written < count; n++) {
    for (const { streamId, events } of syntheticHistory(n, n % 1000)) {
      await store.append(
        streamId,
        events.map((e) => ({ type: e.type, data: e.data, metadata: { at: at(n % 10_000) } })),
        "no_stream",
      );
      written += events.length;
    }
  }
  return written;
}
