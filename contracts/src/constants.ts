// Business constants of the product spec (section 9) and the architecture page.

export const SESSION_LENGTHS_MINUTES = [30, 60, 90, 120] as const;
export type SessionLengthMinutes = (typeof SESSION_LENGTHS_MINUTES)[number];
export const DEFAULT_SESSION_LENGTH_MINUTES: SessionLengthMinutes = 30;

export const MIN_PREP_QUESTIONS = 1;
export const MAX_PREP_QUESTIONS = 3;
// A creator answers each prep question the session asked, one answer per question (issue 27.10): 1 to MAX_PREP_QUESTIONS.

export const BOOKING_WINDOW_DAYS = 28;
export const SLOT_STEP_MINUTES = 30;
/** 48 half-hour options from 00:00 to 23:30. */
export const SLOT_OPTIONS_PER_DAY = (24 * 60) / SLOT_STEP_MINUTES;

/** An unpaid booking holds its time this long; configurable per deployment. */
export const DEFAULT_HOLD_MINUTES = 15;
/** The lowest price a session may have, in cents: a payment below it is not worth a card fee (and 0.001 must not round to free). */
export const MIN_SESSION_PRICE_CENTS = 100;
/**
 * Cancellation policy: a creator who cancels a confirmed booking at least this long before its
 * start gets back everything paid, later nothing; an expert, an admin or the system cancelling
 * always refunds in full.
 */
export const FULL_REFUND_NOTICE_HOURS = 24;
/**
 * Per session (issue 31.4): the expert chooses until how long before the start a creator's cancellation is refunded in
 * full, and until when the creator may ask to move it, within these bounds; a booking keeps the terms it was booked under.
 */
export const FULL_REFUND_HOURS_OPTIONS = [24, 48, 72] as const;
export type FullRefundHours = (typeof FULL_REFUND_HOURS_OPTIONS)[number];
export const RESCHEDULE_HOURS_OPTIONS = [12, 24, 48] as const;
export type RescheduleHours = (typeof RESCHEDULE_HOURS_OPTIONS)[number];
/**
 * Rule (issue 27.6): a paid request waits this many hours for the expert to accept, and never past
 * the session's start; unanswered by then, the system cancels it and everything paid goes back.
 */
export const REQUEST_ANSWER_HOURS = 48;
/** Unpaid holds one creator may keep at once, across all experts: nobody can hold an expert's month. */
export const MAX_UNPAID_HOLDS_PER_CREATOR = 3;

export const WEEKDAYS = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"] as const;
export type WeekdayName = (typeof WEEKDAYS)[number];
export const DEFAULT_NEW_SLOT = { weekday: "monday", start_local: "09:00", end_local: "17:00" } as const;

export const IMAGE_MAX_BYTES = 5 * 1024 * 1024;
export const IMAGE_MAX_EDGE_PX = 1200;
export const REVIEW_SCALE = 5;
export const CALENDAR_GRID_DAYS = 42;
/** Live booking streams (GET /stream) one user keeps open on one API process; a newer one closes the oldest. */
export const LIVE_STREAMS_PER_USER = 5;

export const TIMERS_MS = {
  copiedNotice: 2000,
  alertDismiss: 5000,
  paymentSuccessPause: 1500,
  deleteRedirect: 800,
  searchDebounce: 300,
  tokenRefreshBackoffStart: 200,
} as const;

export const CACHE_MS = {
  sessions: 30_000,
  expertListFresh: 60_000,
  expertListKept: 5 * 60_000,
  expertDetailPrefetchFresh: 60_000,
  globalStale: 5 * 60_000,
} as const;

export const MINIMUM_AGE_YEARS = 18;
export const CURRENT_TERMS_VERSION = "2025-01";

export const TEST_CARDS = {
  succeeds: "4242424242424242",
  declined: "4000000000000002",
} as const;
