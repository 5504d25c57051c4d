import type { CalendarCommand } from "@booking/contracts";
import type { RecordedCalendarEvent } from "../../src/calendar/booking-history.ts";
import { calendarDecider } from "../../src/calendar/calendar.ts";
import { scheduleSet } from "./calendar-fixtures.ts";

/**
 * A calendar stream as the command handler would write it: the fixture's schedule set at
 * `scheduledAt`, then each command decided on the fold so far at its own time, its events
 * recorded at that time. A refusal is a broken fixture.
 */
export function recordedStream(scheduledAt: string, steps: readonly [string, CalendarCommand][]): RecordedCalendarEvent[] {
  let state = calendarDecider.evolve(calendarDecider.initialState(), [scheduleSet]);
  const stream: RecordedCalendarEvent[] = [{ event: scheduleSet, at: scheduledAt }];
  for (const [now, command] of steps) {
    const result = calendarDecider.decide(command, state, { now });
    if (!result.ok) throw new Error(`${command.type} at ${now}: ${result.refusal.code}`);
    state = calendarDecider.evolve(state, result.value);
    stream.push(...result.value.map((event) => ({ event, at: now })));
  }
  return stream;
}
