import { randomUUID } from "node:crypto";
import { CURRENT_TERMS_VERSION, WEEKDAYS, type CalendarCommand } from "@booking/contracts";
import { calendarStream, expertStream, sessionStream, termsStream } from "@booking/engine";
import type { EventStore, NewEvent } from "@booking/event-store";

// Seed data for the bench, appended straight to the event store (what the commands would have
// written), so that setting up 1,000 experts takes seconds rather than minutes.

/** Every day, 00:00 to 23:30 UTC: plenty of distinct bookable hours for every expert. */
export const ALL_WEEK_UTC = { timezone: "UTC", slots: WEEKDAYS.map((weekday) => ({ weekday, start_local: "00:00", end_local: "23:30" })) };

/** A typical expert: weekdays, 09:00 to 17:00 UTC. */
export const WORKING_HOURS_UTC = {
  timezone: "UTC",
  slots: WEEKDAYS.slice(0, 5).map((weekday) => ({ weekday, start_local: "09:00", end_local: "17:00" })),
};

export type Schedule = typeof ALL_WEEK_UTC;

/** The `n`-th start (whole hours, 60-minute sessions) inside WORKING_HOURS_UTC from `from` on. */
export function workingHour(from: Date, n: number): Date {
  const d = new Date(from);
  d.setUTCMinutes(0, 0, 0);
  let left = n;
  for (;;) {
    const day = d.getUTCDay(); // 0 Sunday .. 6 Saturday
    const hour = d.getUTCHours();
    if (day >= 1 && day <= 5 && hour >= 9 && hour <= 16) {
      if (left === 0) return d;
      left--;
    }
    d.setUTCHours(hour + 1);
  }
}

export type SeededExpert = { expertId: string; sessionId: string; priceCents: number };
export type SeededCreator = { userId: string; email: string };

const meta = (at: string) => ({ at });

/** Run `work` over `items` with at most `concurrency` in flight. */
export async function inParallel<T>(
  items: readonly T[],
  concurrency: number,
  work: (item: T, index: number) => Promise<unknown>,
): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(concurrency, items.length) }, async () => {
      while (next < items.length) {
        const i = next++;
        await work(items[i]!, i);
      }
    }),
  );
}

/** Connected calendars each expert has (issue 32): how many, and the busy times each holds over the next 29 days. */
export type ConnectedCalendars = { calendars: number; busyEach: number; from: number };

/**
 * What syncing the expert's connected calendars records: per calendar, `busyEach` meetings of 15 to
 * 120 minutes at any quarter hour of the 29 days from `from` (a fixed pseudo-random spread, so runs compare).
 */
function externalBusyEvents(expertId: string, c: ConnectedCalendars, expertIndex: number, at: string): NewEvent[] {
  let seed = 2_654_435_761 * (expertIndex + 1);
  const next = () => (seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31;
  const quarters = 29 * 96;
  const to = new Date(c.from + 29 * 86_400_000).toISOString();
  return Array.from({ length: c.calendars }, (_, k) => {
    const busy = Array.from({ length: c.busyEach }, () => {
      const start = c.from + Math.floor(next() * quarters) * 900_000;
      return { start, end: start + (1 + Math.floor(next() * 8)) * 900_000 };
    })
      .sort((a, b) => a.start - b.start)
      .map((b) => ({ start: new Date(b.start).toISOString(), end: new Date(b.end).toISOString() }));
    const data = { expertId, sourceId: `bench-calendar-${k}`, from: new Date(c.from).toISOString(), to, busy };
    return { type: "ExternalBusyTimesSynced", data, metadata: meta(at) };
  });
}

/** Experts with a published profile, one published 60-minute session and an all-week UTC schedule. */
export async function seedExperts(
  store: EventStore,
  count: number,
  at: string,
  options: { profiles?: boolean; sessions?: boolean; schedule?: Schedule; connectedCalendars?: ConnectedCalendars } = {},
): Promise<SeededExpert[]> {
  const schedule = options.schedule ?? ALL_WEEK_UTC;
  const experts = Array.from({ length: count }, (_, i) => ({
    expertId: `bx${i}-${randomUUID().slice(0, 8)}`,
    sessionId: `bs${i}-${randomUUID().slice(0, 8)}`,
    priceCents: 5_000 + (i % 50) * 100,
  }));
  await inParallel(experts, 8, async ({ expertId, sessionId, priceCents }, i) => {
    const synced = options.connectedCalendars ? externalBusyEvents(expertId, options.connectedCalendars, i, at) : [];
    const appends: [string, NewEvent[]][] = [
      [calendarStream(expertId), [{ type: "ScheduleSet", data: { expertId, ...schedule }, metadata: meta(at) }, ...synced]],
    ];
    if (options.profiles ?? true) {
      appends.push([
        `user-${expertId}`,
        [
          {
            type: "UserRegistered",
            data: {
              userId: expertId,
              email: `expert${i}@bench.example`,
              role: "expert",
              firstName: `Expert${i}`,
              lastName: `Bench${i % 97}`,
            },
            metadata: meta(at),
          },
        ],
      ]);
      appends.push([
        expertStream(expertId),
        [
          {
            type: "ExpertProfileSaved",
            data: {
              expertId,
              userId: expertId,
              slug: `expert-${i}-${expertId.slice(-8)}`,
              profile: {
                firstName: `Expert${i}`,
                lastName: `Bench${i % 97}`,
                title: "Growth strategist",
                bio: "Ten years of brand deals.\n\nAsk me anything.",
                tags: ["brand", "growth", "podcasts"],
                profileImage: null,
              },
              published: true,
            },
            metadata: meta(at),
          },
          // Approved by our team, so creators can book them (issue 30).
          { type: "ExpertVerified", data: { expertId, by: "bench-admin" }, metadata: meta(at) },
        ],
      ]);
    }
    if (options.sessions ?? true) {
      appends.push([
        sessionStream(sessionId),
        [
          {
            type: "SessionCreated",
            data: {
              sessionId,
              expertId,
              status: "published",
              definition: {
                title: "Brand deal review",
                description: "We review your deck",
                priceCents,
                lengthMinutes: 60,
                prepQuestions: ["Goal?", "Audience?", "Blockers?"],
                sessionDetails: "",
                idealFor: ["podcasters"],
              },
            },
            metadata: meta(at),
          },
        ],
      ]);
    }
    for (const [stream, events] of appends) await store.append(stream, events, "no_stream");
  });
  return experts;
}

/** Creators who accepted the current terms. */
export async function seedCreators(store: EventStore, count: number, at: string): Promise<SeededCreator[]> {
  const creators = Array.from({ length: count }, (_, i) => ({
    userId: `bc${i}-${randomUUID().slice(0, 8)}`,
    email: `creator${i}@bench.example`,
  }));
  await inParallel(creators, 8, async ({ userId, email }) => {
    await store.append(
      `user-${userId}`,
      [{ type: "UserRegistered", data: { userId, email, role: "creator", firstName: "Bench", lastName: "Creator" }, metadata: meta(at) }],
      "no_stream",
    );
    await store.append(
      termsStream(userId),
      [{ type: "TermsAccepted", data: { userId, versionId: CURRENT_TERMS_VERSION, acceptedAt: at }, metadata: meta(at) }],
      "no_stream",
    );
  });
  return creators;
}

/** A booking request for `expert` at `scheduledTime`, as the API builds it. */
export function requestBooking(
  expert: SeededExpert,
  creatorId: string,
  scheduledTime: string,
  lengthMinutes: 30 | 60 = 60,
): CalendarCommand {
  return {
    type: "RequestBooking",
    expertId: expert.expertId,
    bookingId: randomUUID(),
    actor: { userId: creatorId, role: "creator" },
    scheduledTime,
    session: {
      sessionId: expert.sessionId,
      expertId: expert.expertId,
      title: "Brand deal review",
      lengthMinutes,
      priceCents: expert.priceCents,
      published: true,
      prepQuestions: ["Goal?", "Audience?", "Blockers?"],
    },
    expertUserId: expert.expertId,
    expertVetting: "approved",
    creatorAcceptedTerms: true,
    creatorBookings: [],
    holdMinutes: 15,
  };
}

/** Midnight UTC `days` after `from`. */
export function midnightUtc(from: Date, days: number): Date {
  const d = new Date(from);
  d.setUTCHours(0, 0, 0, 0);
  d.setUTCDate(d.getUTCDate() + days);
  return d;
}
