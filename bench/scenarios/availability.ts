import { bookableStarts, type BusyPeriod } from "@booking/engine";
import { AvailabilityAnswers } from "../../api/src/availability/availability-answers.ts";
import { profiled } from "../lib/cpuprofile.ts";
import { ALL_WEEK_UTC } from "../lib/seed.ts";
import { now, say, summarise, type LatencySummary } from "../lib/stats.ts";

// Availability for the whole 28-day window (bookableStarts, the function both the availability
// route and the booking decision use): p50/p99 of one computation, for a typical expert and for
// the densest schedule the product allows; and the route's usual case, the typical expert's
// answer remembered (AvailabilityAnswers: checked against the calendar's version, the bookings near
// the window and the window's ends, then the reply as serialised before) while the clock moves on.

export type AvailabilityCase = { schedule: string; lengthMinutes: number; busy: number; times: number; latency: LatencySummary };
export type AvailabilityFigure = {
  days: number;
  typical: AvailabilityCase;
  dense: AvailabilityCase;
  remembered: AvailabilityCase;
};

const TYPICAL = {
  timezone: "Europe/London",
  slots: [
    ...(["monday", "tuesday", "wednesday", "thursday", "friday"] as const).map((weekday) => ({
      weekday,
      start_local: "09:00",
      end_local: "12:30",
    })),
    ...(["monday", "tuesday", "wednesday", "thursday", "friday"] as const).map((weekday) => ({
      weekday,
      start_local: "13:30",
      end_local: "17:30",
    })),
    { weekday: "saturday" as const, start_local: "10:00", end_local: "13:00" },
  ],
};

function busyPeriods(from: number, count: number, lengthMinutes: number): BusyPeriod[] {
  // Spread over the window on whole hours, as confirmed bookings would be.
  return Array.from({ length: count }, (_, i) => ({
    start: new Date(Math.floor((from + ((i + 1) * 27 * 86_400_000) / (count + 1)) / 3_600_000) * 3_600_000).toISOString(),
    lengthMinutes,
  }));
}

function measure(name: string, schedule: typeof TYPICAL, lengthMinutes: 30 | 60, busyCount: number, seconds: number): AvailabilityCase {
  const t = Date.now();
  const query = { schedule, lengthMinutes, busy: busyPeriods(t, busyCount, lengthMinutes), now: new Date(t).toISOString() };
  let times = 0;
  for (let i = 0; i < 50; i++) times = bookableStarts(query).length; // warm up the JIT
  const samples: number[] = [];
  const end = now() + seconds * 1000;
  while (now() < end || samples.length < 50) {
    const s = now();
    bookableStarts(query);
    samples.push(now() - s);
  }
  say(`  ${name}: ${samples.length} computations`);
  return { schedule: name, lengthMinutes, busy: busyCount, times, latency: summarise(samples) };
}

/** The route's question asked again and again, `now` a millisecond later each time (a new answer every 15 minutes of it). */
function measureRemembered(
  name: string,
  schedule: typeof TYPICAL,
  lengthMinutes: 60,
  busyCount: number,
  seconds: number,
): AvailabilityCase {
  const t = Date.now();
  const busy = busyPeriods(t, busyCount, lengthMinutes);
  const answers = new AvailabilityAnswers();
  let i = 0;
  const ask = () =>
    answers.replyBody({
      calendar: "calendar-bench",
      version: 1,
      query: { schedule, lengthMinutes, busy, now: new Date(t + i++).toISOString() },
    });
  for (let w = 0; w < 1_000; w++) ask(); // warm up the JIT
  const samples: number[] = [];
  const end = now() + seconds * 1000;
  while (now() < end || samples.length < 50) {
    const s = now();
    ask();
    samples.push(now() - s);
  }
  say(
    `  ${name}: ${samples.length} answers, ${answers.stats.misses} computed, mean ${Math.round((samples.reduce((a, b) => a + b, 0) / samples.length) * 1000 * 10) / 10} µs`,
  );
  return {
    schedule: name,
    lengthMinutes,
    busy: busyCount,
    times: (JSON.parse(ask().toString()) as { times: string[] }).times.length,
    latency: summarise(samples),
  };
}

const TYPICAL_NAME = "Europe/London, weekdays 09:00-12:30 and 13:30-17:30, Saturday 10:00-13:00";

export async function benchAvailability(options: { seconds: number }): Promise<AvailabilityFigure> {
  const typical = await profiled("availability-typical", async () => measure(TYPICAL_NAME, TYPICAL, 60, 20, options.seconds));
  const dense = measure(
    "UTC, every day 00:00-23:30 (the most the schedule allows)",
    ALL_WEEK_UTC as typeof TYPICAL,
    30,
    60,
    options.seconds,
  );
  const remembered = measureRemembered(`${TYPICAL_NAME}, remembered`, TYPICAL, 60, 20, options.seconds);
  return { days: 28, typical, dense, remembered };
}
