import type { Booking, Session } from "../shared/api-types.ts";

export const PREP_REQUIRED_MESSAGE = "Please answer all three preparation questions.";
export const PREP_FIELD_MESSAGE = "Please answer this question.";
export const PREP_SUBMIT_FAILED = "Something went wrong submitting your answers.";

/** Stand-ins when the expert asked fewer than three questions: the creator always answers three. */
const FALLBACK_QUESTIONS = ["What would make this session a success for you?", "Where are you today?", "Anything else the expert should know?"];

export function prepQuestionsOf(source: Pick<Booking, "prep_question_1" | "prep_question_2" | "prep_question_3"> | Pick<Session, "prep_questions"> | null): [string, string, string] {
  const given = !source ? [] : "prep_questions" in source ? source.prep_questions : [source.prep_question_1, source.prep_question_2, source.prep_question_3];
  const asked = given.filter((q): q is string => !!q && q.trim() !== "");
  const unused = FALLBACK_QUESTIONS.filter((q) => !asked.includes(q));
  const all = [...asked, ...unused].slice(0, 3);
  return [all[0]!, all[1]!, all[2]!];
}

export type PrepErrors = { fields: (string | null)[]; summary: string | null };

export function validatePrepAnswers(answers: string[]): PrepErrors {
  const fields = [0, 1, 2].map((i) => ((answers[i] ?? "").trim() ? null : PREP_FIELD_MESSAGE));
  return { fields, summary: fields.some(Boolean) ? PREP_REQUIRED_MESSAGE : null };
}

export const prepBody = (answers: string[]) => ({ prep_response_1: answers[0]!.trim(), prep_response_2: answers[1]!.trim(), prep_response_3: answers[2]!.trim() });
