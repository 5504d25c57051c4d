import {
  Currency,
  DEFAULT_CURRENCY,
  DEFAULT_SESSION_LENGTH_MINUTES,
  FULL_REFUND_HOURS_OPTIONS,
  FULL_REFUND_NOTICE_HOURS,
  MAX_PREP_QUESTIONS,
  PLATFORM_FEE_BASIS_POINTS,
  RESCHEDULE_HOURS_OPTIONS,
  RESCHEDULE_NOTICE_HOURS,
  SESSION_LENGTHS_MINUTES,
  SessionBody,
  earningSplit,
  errorCatalogue,
  type FullRefundHours,
  type RescheduleHours,
} from "@booking/contracts";
import type { Session } from "../shared/api-types.ts";
import { centsOfTyped, moneyText, percentText } from "../shared/money.ts";

export type SessionForm = {
  title: string;
  /** As typed: digits and dots only. */
  price: string;
  length_minutes: number;
  description: string;
  session_details: string;
  /** Comma-separated. */
  ideal_for: string;
  questions: string[];
  /** Accepted on payment, no request to answer (issue 27.6). */
  instant_booking: boolean;
  /** The price's currency (issue 29.8). */
  currency: Currency;
  /** Cut-offs (issue 31.4): a creator's cancellation is refunded in full until, and a move may be asked until, this many hours before the start. */
  full_refund_hours: FullRefundHours;
  reschedule_hours: RescheduleHours;
};

export type SessionErrors = { title?: string; price?: string; length?: string; questions?: string };

export const emptySessionForm = (): SessionForm => ({
  title: "",
  price: "",
  length_minutes: DEFAULT_SESSION_LENGTH_MINUTES,
  description: "",
  session_details: "",
  ideal_for: "",
  questions: [""],
  instant_booking: false,
  currency: DEFAULT_CURRENCY,
  full_refund_hours: FULL_REFUND_NOTICE_HOURS,
  reschedule_hours: RESCHEDULE_NOTICE_HOURS,
});

/** One of the contract's choices, or `fallback` for a value outside them (a session saved before sessions had cut-offs). */
const choiceOf = <T extends number>(options: readonly T[], value: unknown, fallback: T): T =>
  options.includes(value as T) ? (value as T) : fallback;

/** The cut-offs a session was saved with, as the editor's choices. */
export const savedCutOffs = (s: Partial<Pick<Session, "full_refund_hours" | "reschedule_hours">>) => ({
  full_refund_hours: choiceOf(FULL_REFUND_HOURS_OPTIONS, s.full_refund_hours, FULL_REFUND_NOTICE_HOURS),
  reschedule_hours: choiceOf(RESCHEDULE_HOURS_OPTIONS, s.reschedule_hours, RESCHEDULE_NOTICE_HOURS),
});

/** The currency a session was saved with; sessions saved before they had one are priced in US dollars. */
export const savedCurrency = (s: Session): Currency => Currency.safeParse((s as { currency?: unknown }).currency).data ?? DEFAULT_CURRENCY;

export function formFromSession(s: Session): SessionForm {
  const questions = [s.prep_question_1, s.prep_question_2, s.prep_question_3].filter((q): q is string => !!q);
  return {
    title: s.title,
    price: String(s.price),
    length_minutes: s.length_minutes,
    description: s.description ?? "",
    session_details: s.session_details ?? "",
    ideal_for: s.ideal_for.join(", "),
    questions: questions.length ? questions.slice(0, MAX_PREP_QUESTIONS) : [""],
    instant_booking: s.instant_booking,
    currency: savedCurrency(s),
    ...savedCutOffs(s),
  };
}

/**
 * What the expert keeps of the price, before they publish it (issue 29.1): "You receive $127.50 of $150.
 * Platform fee 15 %: $22.50." in the session's currency; null while the price is not a price.
 */
export function shareLine(form: Pick<SessionForm, "price" | "currency">, feeBasisPoints = PLATFORM_FEE_BASIS_POINTS): string | null {
  const price = centsOfTyped(form.price, form.currency);
  if (price === null || price <= 0) return null;
  const split = earningSplit(price, 0, feeBasisPoints);
  const money = (cents: number) => moneyText(cents, form.currency, { short: true });
  return `You receive ${money(split.shareCents)} of ${money(price)}. Platform fee ${percentText(feeBasisPoints)}: ${money(split.feeCents)}.`;
}

/** The price input keeps only digits and dots. */
export const sanitizePrice = (typed: string) => typed.replace(/[^\d.]/g, "");

/** "Who is this session for?" split on commas, trimmed, empties dropped. */
export const idealForList = (text: string) =>
  text
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean);

export function validateSession(form: SessionForm): SessionErrors {
  const errors: SessionErrors = {};
  if (!form.title.trim()) errors.title = "Please enter a session title.";
  // The server's own rule (whole cents, at least $1) and message.
  if (form.price.trim() === "" || !SessionBody.shape.price.safeParse(Number(form.price)).success)
    errors.price = errorCatalogue.session_price_invalid.message;
  if (
    !Number.isInteger(form.length_minutes) ||
    form.length_minutes <= 0 ||
    !(SESSION_LENGTHS_MINUTES as readonly number[]).includes(form.length_minutes)
  ) {
    errors.length = "Please choose a valid session length.";
  }
  const questions = form.questions.map((q) => q.trim()).filter(Boolean);
  if (questions.length < 1 || form.questions.length > MAX_PREP_QUESTIONS) errors.questions = "Add between one and three session questions.";
  return errors;
}

/** The messages of the fields the expert has touched: the rest stay quiet until they do. */
export function shownErrors(errors: SessionErrors, touched: ReadonlySet<keyof SessionErrors>): SessionErrors {
  return Object.fromEntries(Object.entries(errors).filter(([field]) => touched.has(field as keyof SessionErrors)));
}

/** The body of POST /sessions and PUT /sessions/{id}; `saved`: the currency the session was saved with, if it was. */
export function sessionBody(form: SessionForm, saved: Currency = DEFAULT_CURRENCY) {
  const questions = form.questions.map((q) => q.trim()).filter(Boolean);
  return {
    title: form.title.trim(),
    price: Number(form.price),
    length_minutes: form.length_minutes,
    description: form.description.trim(),
    session_details: form.session_details.trim(),
    ideal_for: idealForList(form.ideal_for),
    prep_question_1: questions[0] ?? null,
    prep_question_2: questions[1] ?? null,
    prep_question_3: questions[2] ?? null,
    instant_booking: form.instant_booking,
    // Absent means US dollars (the contract's rule for sessions saved before issue 29): the currency is sent when
    // it is another, or when it changes back from another.
    ...((form.currency !== DEFAULT_CURRENCY || saved !== DEFAULT_CURRENCY) && { currency: form.currency }),
    full_refund_hours: form.full_refund_hours,
    reschedule_hours: form.reschedule_hours,
  };
}
