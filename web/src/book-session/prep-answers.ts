import { errorCatalogue } from "@booking/contracts";
import type { Booking, Session } from "../shared/api-types.ts";

export const PREP_REQUIRED_MESSAGE = errorCatalogue.prep_answers_required.message;
export const PREP_FIELD_MESSAGE = "Please answer this question.";
export const PREP_SUBMIT_FAILED = "Something went wrong submitting your answers.";

/** Asked only of a booking whose session asked nothing (from before sessions had to ask one): the server takes one answer then. */
const NO_QUESTION_ASKED = "Anything the expert should know before the session?";

/** The questions the expert wrote, in order: the creator answers these and no others (issue 27.10). */
export function prepQuestionsOf(
  source: Pick<Booking, "prep_question_1" | "prep_question_2" | "prep_question_3"> | Pick<Session, "prep_questions"> | null,
): string[] {
  const given = !source
    ? []
    : "prep_questions" in source
      ? source.prep_questions
      : [source.prep_question_1, source.prep_question_2, source.prep_question_3];
  const asked = given.filter((q): q is string => !!q && q.trim() !== "");
  return asked.length ? asked : [NO_QUESTION_ASKED];
}

export type PrepErrors = { fields: (string | null)[]; summary: string | null };

/** One answer per question asked, none blank. */
export function validatePrepAnswers(answers: string[], questionCount: number): PrepErrors {
  const fields = Array.from({ length: questionCount }, (_, i) => ((answers[i] ?? "").trim() ? null : PREP_FIELD_MESSAGE));
  return { fields, summary: fields.some(Boolean) ? PREP_REQUIRED_MESSAGE : null };
}

/** PATCH /bookings/{id}/prep: `prep_response_n` for each question asked, no more. */
export const prepBody = (answers: string[]): Record<string, string> =>
  Object.fromEntries(answers.map((a, i) => [`prep_response_${i + 1}`, a.trim()]));
