import type pg from "pg";
import type { BufferMinutes, ExpertListItem, ExpertListQuery } from "@booking/contracts";
import {
  firstBookableStart,
  openingLength,
  orderListing,
  passesFilters,
  type ExpertHours,
  type ListingCandidate,
  type OfferedSession,
} from "@booking/engine";
import { bookedPeriodsOf, expertListItem, expertStandings, listExperts, schedulesOf, type ScheduleRow } from "@booking/projections";

// The experts listing (issue 30.5): the read models' approved experts matching the search, each with their
// standing and their next opening (the availability rules over their schedule and booked periods), kept and
// ordered by the engine's listing rules. Five statements whatever the number of experts.

/** A schedule row as the availability rules read it. */
const hoursOf = (s: ScheduleRow): ExpertHours => ({
  schedule: { timezone: s.timezone, slots: s.slots },
  timeOff: s.time_off,
  dateOverrides: s.date_overrides,
  // The row holds the buffers the calendar's events set, which the decider checked against BUFFER_OPTIONS_MINUTES.
  rules: {
    bufferBeforeMinutes: s.buffer_before_minutes as BufferMinutes,
    bufferAfterMinutes: s.buffer_after_minutes as BufferMinutes,
    minNoticeHours: s.min_notice_hours,
  },
  externalBusy: Object.values(s.external_busy).flat(),
});

export async function expertListing(db: pg.Pool, query: ExpertListQuery, now: string): Promise<ExpertListItem[]> {
  const rows = await listExperts(db, query.search);
  const ids = rows.map((r) => r.expert_id);
  const [standings, schedules, booked] = await Promise.all([expertStandings(db, ids), schedulesOf(db, ids), bookedPeriodsOf(db, ids, now)]);
  const candidates = rows.map((r): ListingCandidate => {
    const offered: OfferedSession[] = r.offered.map((o) => ({
      lengthMinutes: o.length_minutes,
      priceCents: o.price_cents,
      currency: o.currency,
    }));
    const length = openingLength(offered, query);
    const schedule = schedules.get(r.expert_id);
    const busy = (booked.get(r.expert_id) ?? []).map((b) => ({ start: b.scheduled_time, lengthMinutes: b.length_minutes }));
    const standing = standings.get(r.expert_id);
    return {
      expertId: r.expert_id,
      name: `${r.first_name} ${r.last_name}`,
      title: r.title,
      tags: r.tags,
      offered,
      startingPrice:
        r.starting_price_cents === null || r.starting_price_currency === null
          ? null
          : { cents: r.starting_price_cents, currency: r.starting_price_currency },
      rating: r.rating,
      reviewCount: r.review_count,
      medianAnswerMinutes: standing?.medianAnswerMinutes ?? null,
      answeredRequests: standing?.answeredRequests ?? 0,
      cancelledByExpert: standing?.cancelledByExpert ?? 0,
      expertNoShows: standing?.expertNoShows ?? 0,
      sessionsDue: standing?.sessionsDue ?? 0,
      nextAvailable: length !== null && schedule ? firstBookableStart({ ...hoursOf(schedule), lengthMinutes: length, busy, now }) : null,
    };
  });
  const byId = new Map(rows.map((r) => [r.expert_id, r]));
  const kept = candidates.filter((c) => passesFilters(c, query, now));
  return orderListing(kept, query.sort, query.search, query.currency).map((c) =>
    expertListItem(byId.get(c.expertId)!, { next_available: c.nextAvailable, median_answer_minutes: c.medianAnswerMinutes }),
  );
}
