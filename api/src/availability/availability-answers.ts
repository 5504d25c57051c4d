import { AvailabilityReply } from "@booking/contracts";
import { answerDependsOn, bookableStarts, type AvailabilityQuery } from "@booking/engine";

/** One calendar's question: whose, for how long a session, over which range (absent: the whole window). */
export type AvailabilityQuestion = { calendar: string; version: number; query: AvailabilityQuery };

type Remembered = { signature: string; times: string[]; body?: Buffer };

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

  times(question: AvailabilityQuestion): string[] {
    return this.answer(question).times;
  }

  /**
   * The route's reply as JSON, serialised once per remembered answer (and checked against its
   * schema then, as Fastify's serialiser is skipped). The zone is the calendar's (the same at the
   * same version) and the length is part of the question.
   */
  replyBody(question: AvailabilityQuestion): Buffer {
    const found = this.answer(question);
    found.body ??= Buffer.from(
      JSON.stringify(
        AvailabilityReply.parse({
          timezone: question.query.schedule.timezone,
          length_minutes: question.query.lengthMinutes,
          times: found.times,
        }),
      ),
    );
    return found.body;
  }

  private answer({ calendar, version, query }: AvailabilityQuestion): Remembered {
    const key = `${calendar} ${query.lengthMinutes} ${query.from ?? ""} ${query.to ?? ""}`;
    const { firstStep, lastStep, busy } = answerDependsOn(query);
    const signature = `${version} ${firstStep} ${lastStep} ${busy.map((b) => `${b.start}/${b.lengthMinutes}`).join(",")}`;
    const found = this.remembered.get(key);
    this.remembered.delete(key);
    if (found?.signature === signature) {
      this.stats.hits++;
      this.remembered.set(key, found);
      return found;
    }
    this.stats.misses++;
    const answer = { signature, times: bookableStarts(query) };
    this.remembered.set(key, answer);
    if (this.remembered.size > this.size) this.remembered.delete(this.remembered.keys().next().value!);
    return answer;
  }
}
