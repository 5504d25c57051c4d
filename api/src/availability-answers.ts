import { answerDependsOn, bookableStarts, type AvailabilityQuery } from "@booking/engine";

/** One calendar's question: whose, for how long a session, over which range (absent: the whole window). */
export type AvailabilityQuestion = { calendar: string; version: number; query: AvailabilityQuery };

type Remembered = { signature: string; times: string[] };

export type AvailabilityAnswerStats = { hits: number; misses: number };

/**
 * The bookable starts of recent questions, remembered. An answer is reused while the calendar's
 * stream has the same version (its hours, time off, extra hours and rules are unchanged), the
 * bookings near the window are the same (a hold that expired frees its time at once) and the
 * window's first and last 15-minute steps are the same (so notice and "already past" move on as
 * `now` does): everything `bookableStarts` reads. One entry per calendar, session length and range;
 * the least recently asked are dropped past `size`.
 */
export class AvailabilityAnswers {
  private readonly remembered = new Map<string, Remembered>();
  readonly stats: AvailabilityAnswerStats = { hits: 0, misses: 0 };

  constructor(private readonly size = 2_000) {}

  times({ calendar, version, query }: AvailabilityQuestion): string[] {
    const key = `${calendar} ${query.lengthMinutes} ${query.from ?? ""} ${query.to ?? ""}`;
    const { firstStep, lastStep, busy } = answerDependsOn(query);
    const signature = `${version} ${firstStep} ${lastStep} ${busy.map((b) => `${b.start}/${b.lengthMinutes}`).join(",")}`;
    const found = this.remembered.get(key);
    this.remembered.delete(key);
    if (found?.signature === signature) {
      this.stats.hits++;
      this.remembered.set(key, found);
      return found.times;
    }
    this.stats.misses++;
    const times = bookableStarts(query);
    this.remembered.set(key, { signature, times });
    if (this.remembered.size > this.size) this.remembered.delete(this.remembered.keys().next().value!);
    return times;
  }
}
