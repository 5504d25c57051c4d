import { z } from "zod";
import { LocalTime, Timezone, Weekday, minutesOfDay } from "./primitives.ts";

export const WeeklySlot = z.object({
  weekday: Weekday,
  start_local: LocalTime,
  end_local: LocalTime,
});
export type WeeklySlot = z.infer<typeof WeeklySlot>;

/** Rule: every slot ends after it starts, and no two slots of one weekday overlap. */
export const WeeklySchedule = z
  .object({
    timezone: Timezone,
    slots: z.array(WeeklySlot).max(7 * 48),
  })
  .superRefine((schedule, ctx) => {
    for (const slot of schedule.slots) {
      if (minutesOfDay(slot.end_local) <= minutesOfDay(slot.start_local)) {
        ctx.addIssue({ code: "custom", message: "schedule_end_before_start", path: ["slots"] });
        return;
      }
    }
    if (slotsOverlap(schedule.slots)) {
      ctx.addIssue({ code: "custom", message: "schedule_slots_overlap", path: ["slots"] });
    }
  });
export type WeeklySchedule = z.infer<typeof WeeklySchedule>;

export function slotsOverlap(slots: readonly WeeklySlot[]): boolean {
  const sorted = [...slots].sort(
    (a, b) => a.weekday.localeCompare(b.weekday) || minutesOfDay(a.start_local) - minutesOfDay(b.start_local),
  );
  for (let i = 1; i < sorted.length; i++) {
    const prev = sorted[i - 1]!;
    const cur = sorted[i]!;
    if (prev.weekday === cur.weekday && minutesOfDay(cur.start_local) < minutesOfDay(prev.end_local)) return true;
  }
  return false;
}
