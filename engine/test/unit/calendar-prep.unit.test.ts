import { describe, expect, it } from "vitest";
import type { CalendarCommand, CalendarEvent } from "@booking/contracts";
import { calendarDecider } from "../../src/calendar/calendar.ts";
import { BOOKING, CREATOR, EXPERT_ID, NOW, paid, requested, scheduleSet } from "./calendar-fixtures.ts";

// Issue 27.10: the creator answers the questions the session asked, one answer each; the wizard
// adds none of its own, so the console shows every answer beside its question.

const askedTwo: CalendarEvent = (() => {
  const e = requested();
  return e.type === "BookingRequested" ? { ...e, data: { ...e.data, prepQuestions: ["What is your goal?", "Where are you now?"] } } : e;
})();

const submit = (answers: string[]): CalendarCommand => ({
  type: "SubmitPrep",
  expertId: EXPERT_ID,
  bookingId: BOOKING,
  actor: CREATOR,
  answers,
});
const decide = (given: CalendarEvent[], answers: string[]) =>
  calendarDecider.decide(submit(answers), calendarDecider.evolve(calendarDecider.initialState(), given), { now: NOW });

describe("prep answers: one per question the session asked", () => {
  it("takes two answers to a session's two questions", () => {
    const result = decide([scheduleSet, askedTwo, paid()], ["Grow", "Stuck at 10k"]);
    expect(result.ok && result.value).toEqual([{ type: "PrepSubmitted", data: { bookingId: BOOKING, answers: ["Grow", "Stuck at 10k"] } }]);
  });

  it.each([[["Grow"]], [["Grow", "Stuck at 10k", "A question nobody asked"]]])(
    "refuses %j for two questions with the catalogue's message",
    (answers) => {
      const result = decide([scheduleSet, askedTwo, paid()], answers);
      expect(result.ok).toBe(false);
      if (!result.ok) expect(result.refusal.code).toBe("prep_answers_required");
    },
  );

  it("takes three answers to three questions", () => {
    expect(decide([scheduleSet, requested(), paid()], ["Grow", "Stuck", "Time"]).ok).toBe(true);
  });
});
