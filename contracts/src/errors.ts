// The error catalogue: every user-facing failure has a code, an HTTP status and a message.
// Messages come from spec section 8 (typos fixed) and sections 4-5; the booking lifecycle
// refusals are ours (the spec leaves server rules open).

import { accountAndCalendarErrors } from "./errors-accounts-calendars.ts";
import { erasureErrors } from "./errors-erasure.ts";
import { passkeyErrors } from "./errors-passkeys.ts";

type Entry = { status: number; message: string };

export const errorCatalogue = {
  // Auth (spec section 8)
  invalid_credentials: { status: 401, message: "Email or password is incorrect." },
  email_not_confirmed: { status: 403, message: "Please confirm your email before logging in." },
  user_banned: { status: 403, message: "This account has been temporarily suspended." },
  session_expired: { status: 401, message: "Your session has expired. Please log in again." },
  user_already_exists: { status: 409, message: "This email is already registered. Try logging in instead." },
  weak_password: { status: 422, message: "Password is too weak. Please choose a stronger one." },
  signup_disabled: { status: 403, message: "Email/password signups are currently disabled." },
  // 403: the caller is signed in (a client must keep the session); the proof they gave is wrong.
  reauthentication_needed: { status: 403, message: "Please log in again to confirm this action." },
  same_password: { status: 422, message: "You cannot reuse your old password." },
  otp_expired: { status: 410, message: "Your reset code has expired. Please request a new one." },
  // Links in mails (verify the address, reset the password, unsubscribe): signed, expiring, single use.
  email_link_invalid: { status: 400, message: "This link is no longer valid. Please request a new one." },
  email_link_expired: { status: 410, message: "This link has expired. Please request a new one." },
  otp_disabled: { status: 403, message: "Password reset via email is disabled. Contact support." },
  over_request_rate_limit: { status: 429, message: "Too many attempts. Please wait a few minutes and try again." },
  // Per account, whatever the address: past a few failed sign-ins each next try waits twice as long (issue 26.13).
  login_throttled: {
    status: 429,
    message: "Too many failed sign-ins to this account. Please wait {wait} and try again, or reset your password.",
  },
  // An API process holds this many live streams at most; the client tries again after Retry-After.
  too_many_streams: { status: 429, message: "Too many live connections right now. Please try again in a moment." },
  captcha_failed: { status: 400, message: "Captcha verification failed. Please try again." },
  provider_disabled: { status: 403, message: "This sign-up provider is not available." },
  provider_email_needs_verification: { status: 403, message: "Please verify your email before logging in with this provider." },
  no_access_token: { status: 401, message: "No access token found" },
  forbidden: { status: 403, message: "You do not have access to this." },
  unknown_error: { status: 400, message: "An unknown error occurred." },
  something_went_wrong: { status: 400, message: "Something went wrong. Please try again." },
  invalid_request: { status: 400, message: "The request is not valid." },
  // A title, a name or a text holds a control character or a line separator (one-line text) a calendar or mail could take for a line end.
  text_has_control_characters: { status: 400, message: "Please remove line breaks and control characters." },
  not_found: { status: 404, message: "Not found." },
  request_too_large: { status: 413, message: "The request is too large." },
  unsupported_media_type: { status: 415, message: "This content type is not supported." },
  method_not_allowed: { status: 405, message: "This method is not allowed here." },

  // Terms
  terms_not_accepted: { status: 403, message: "Please accept the current Terms and Conditions to continue." },
  terms_version_unknown: { status: 400, message: "Could not save acceptance, please try again." },

  // Profile (spec sections 5 and 8)
  profile_names_required: { status: 400, message: "First and Last name are required." },
  profile_title_required: { status: 400, message: "Title is required." },
  profile_not_found: { status: 404, message: "Profile Not Found" },
  profile_save_failed: { status: 400, message: "There was an error saving your profile." },
  admin_not_expert: {
    status: 403,
    message: "Admins manage experts from the console and cannot have an expert profile, sessions or a schedule of their own.",
  },
  profile_image_invalid: { status: 400, message: "Please upload your profile image here; images from other sites cannot be used." },
  expert_profile_required: { status: 403, message: "Complete your Expert Profile to unlock session creation." },
  image_invalid_type: { status: 415, message: "Invalid file type. Please upload an image." },
  image_too_large: { status: 413, message: "The image is larger than 5 MB." },
  image_upload_failed: { status: 400, message: "Image upload failed." },

  // Session (spec section 5)
  session_title_required: { status: 400, message: "Please enter a session title." },
  session_price_invalid: { status: 400, message: "Please enter a valid price of at least $1, in dollars and cents." },
  session_length_invalid: { status: 400, message: "Please choose a valid session length." },
  session_prep_questions_invalid: { status: 400, message: "Add between one and three session questions." },
  session_not_found: { status: 404, message: "Session Not Found" },
  session_not_saved_delete: { status: 409, message: "Save the session first before deleting" },
  session_not_saved_publish: { status: 409, message: "Save the session first before publishing" },
  session_already_exists: { status: 409, message: "This session already exists." },
  session_deleted: { status: 409, message: "This session has been deleted." },
  session_not_published: { status: 409, message: "This session is not available for booking." },
  not_session_owner: { status: 403, message: "Only the session's expert can change it." },

  // Schedule (spec sections 5 and 8)
  schedule_timezone_invalid: { status: 400, message: "Please choose a valid timezone." },
  schedule_time_invalid: { status: 400, message: "Times must be on the half hour, from 00:00 to 23:30." },
  schedule_end_before_start: { status: 400, message: "End time must be after start time" },
  schedule_slots_overlap: { status: 400, message: "You can not add overlapping slots" },
  schedule_required: { status: 409, message: "This expert has not set a schedule yet." },
  schedule_save_failed: { status: 400, message: "Failed to save schedule" },
  // Time off, extra hours on a date and booking rules (issue 17), all in the expert's timezone
  schedule_first: {
    status: 409,
    message: "Set your weekly hours and timezone first: time off, extra hours and booking rules apply in your timezone.",
  },
  time_off_range_invalid: {
    status: 400,
    message: "Time off needs a start and an end on the half hour, the end after the start, at most 366 days apart.",
  },
  time_off_reason_too_long: { status: 400, message: "Please keep the time off label to 200 characters or fewer." },
  time_off_not_found: { status: 404, message: "No time off found." },
  time_off_id_taken: { status: 409, message: "This time off id is already used for a different period." },
  time_off_limit: { status: 409, message: "You can have at most {max} upcoming periods of time off. Remove one before adding another." },
  date_override_invalid: { status: 400, message: "Extra hours need a valid date, and an end after their start on the half hour." },
  date_override_overlap: { status: 409, message: "These extra hours overlap extra hours you already added on that date." },
  date_override_not_found: { status: 404, message: "No extra hours found." },
  date_override_id_taken: { status: 409, message: "This extra hours id is already used for different hours." },
  date_override_limit: { status: 409, message: "You can have at most {max} upcoming extra hours. Remove some before adding more." },
  booking_buffer_invalid: { status: 400, message: "Buffers before and after a session are 0, 10, 15 or 30 minutes." },
  booking_notice_invalid: { status: 400, message: "The minimum notice is a whole number of hours from 0 to 168." },
  proposed_time_in_time_off: { status: 409, message: "That time falls in your time off. Please propose another time." },
  proposed_time_in_own_calendar: { status: 409, message: "That time is busy in your own calendar. Please propose another time." },
  proposed_time_too_soon: { status: 409, message: "That time is sooner than your minimum notice. Please propose a later time." },

  // Booking (spec sections 4, 5 and 8; lifecycle from the architecture page)
  slot_unavailable: { status: 409, message: "That time slot is no longer available. Please pick another." },
  scheduled_time_invalid: { status: 400, message: "Please choose a date and time." },
  proposed_time_invalid: {
    status: 409,
    message:
      "Please propose one of your bookable times: inside your weekly hours, within the next 28 days, the whole session fitting and clear of other bookings.",
  },
  booking_not_found: { status: 404, message: "No booking found" },
  booking_already_exists: { status: 409, message: "This booking already exists." },
  not_booking_party: { status: 403, message: "Only the creator or expert of this booking can do that." },
  only_creators_book: { status: 403, message: "Experts cannot book sessions." },
  admin_cannot_book: { status: 403, message: "Admins cannot book sessions. Sign in with a creator account to book." },
  creator_hold_limit: {
    status: 409,
    message: "You already have {max} bookings waiting for payment. Complete payment for one, or release its time, before booking another.",
  },
  creator_time_overlap: { status: 409, message: "You already have a session booked at that time. Please pick another time." },
  booking_transition_refused: { status: 409, message: "This booking is {status} and can no longer be {action}." },
  payment_required: { status: 409, message: "This booking has to be paid before it can be confirmed." },
  booking_request_lapsed: {
    status: 409,
    message: "This request was not accepted in time, so it can no longer be confirmed. The creator gets a full refund.",
  },
  // Money to experts (issue 29).
  currency_invalid: { status: 422, message: "Choose one of the currencies we support: USD, EUR, GBP, CAD or AUD." },
  currency_mismatch: { status: 422, message: "This amount is in another currency than the booking's." },
  payout_account_required: { status: 409, message: "Connect your payout account before asking for a payout." },
  payout_account_incomplete: { status: 409, message: "Your payout account is not ready yet: finish connecting it to receive payouts." },
  payout_account_exists: { status: 409, message: "A payout account is already connected." },
  payouts_held: { status: 409, message: "Payouts to this expert are on hold. Contact support to find out why." },
  payouts_hold_reason_required: { status: 422, message: "Say why the payouts are held: the expert is told." },
  payout_below_minimum: { status: 422, message: "A payout must be at least {minimum}." },
  payout_exceeds_available: { status: 409, message: "You asked for more than is available to pay out." },
  payout_nothing_available: { status: 409, message: "Nothing is available to pay out yet." },
  earning_not_completed: { status: 409, message: "Only a completed session's earnings can be released." },
  earning_clearing: { status: 409, message: "This session's earnings are still in their clearing period." },
  payout_not_found: { status: 404, message: "No such payout." },
  payment_amount_mismatch: { status: 409, message: "The payment amount does not match the session price." },
  booking_already_paid: { status: 409, message: "This booking has already been paid." },
  payment_declined: { status: 402, message: "Your card was declined." },
  card_number_invalid: { status: 402, message: "Your card number is incorrect." },
  payment_not_found: { status: 404, message: "No payment found for this booking." },
  payment_provider_unavailable: { status: 404, message: "This payment method is not available." },
  webhook_signature_invalid: { status: 400, message: "The webhook signature is not valid." },
  hold_not_expired: { status: 409, message: "This booking's hold has not expired yet." },
  session_not_over: { status: 409, message: "A session can be completed only after its end time." },
  prep_answers_required: { status: 400, message: "Please answer each preparation question." },
  info_note_required: { status: 400, message: "Please describe what information you need." },
  notes_required: { status: 400, message: "Please add a session summary." },
  // Refunds (issue 15: the cancellation policy and admin refunds)
  refund_booking_unpaid: { status: 409, message: "This booking has not been paid, so there is nothing to refund." },
  refund_amount_too_high: {
    status: 409,
    message: "You can refund at most {max} for this booking: what was paid, less what is already owed back.",
  },
  refund_amount_invalid: { status: 400, message: "Please enter a refund amount of at least one cent, in whole cents." },
  refund_reason_required: { status: 400, message: "Please give a reason for the refund, in at most 500 characters." },
  prep_submit_failed: { status: 400, message: "Something went wrong submitting your answers." },
  // Calendar invites and feeds (issue 17)
  calendar_invite_not_confirmed: { status: 409, message: "This booking is not confirmed yet, so it cannot be added to a calendar." },
  calendar_feed_not_found: { status: 404, message: "This calendar address is no longer valid. Copy the new one from your account." },
  // Moving a booking and its meeting link (issue 17)
  reschedule_creator_only: { status: 403, message: "Only the creator of this booking can ask to move it or withdraw that request." },
  reschedule_expert_only: { status: 403, message: "Only the expert of this booking can accept or decline a request to move it." },
  reschedule_too_late: {
    status: 409,
    message:
      "A booking can be moved until {hours} hours before it starts. This one starts sooner: please contact your expert or cancel it instead.",
  },
  reschedule_unpaid: { status: 409, message: "This booking is not paid yet. Pay for it first, or cancel it and book another time." },
  reschedule_already_requested: {
    status: 409,
    message: "A request to move this booking is already waiting for the expert. Withdraw it before asking for another time.",
  },
  reschedule_same_time: { status: 409, message: "The booking is already at that time. Please pick another time." },
  reschedule_time_unavailable: { status: 409, message: "That time is not one of the expert's bookable times. Please pick another." },
  reschedule_time_taken: { status: 409, message: "That time is already taken. Please pick another." },
  reschedule_not_requested: { status: 409, message: "There is no request to move this booking waiting for an answer." },
  reschedule_lapsed: {
    status: 409,
    message: "This request to move the booking can no longer be accepted: its time has come. Ask for another time instead.",
  },
  reschedule_pending: { status: 409, message: "The creator asked to move this booking. Accept or decline that request first." },
  join_link_invalid: { status: 400, message: "Please enter a meeting link that starts with https://, without spaces." },
  join_link_expert_only: { status: 403, message: "Only the expert of this booking can set its meeting link." },
  join_link_not_confirmed: { status: 409, message: "A meeting link can be set once the booking is confirmed." },

  // Reviews (issue 15): a completed booking's creator reviews it once; its expert replies once
  review_not_your_booking: { status: 403, message: "Only the creator of this booking can review it." },
  review_booking_not_completed: { status: 409, message: "You can review a session once it has been completed." },
  review_already_left: { status: 409, message: "You have already reviewed this session. You can edit your review instead." },
  review_rating_invalid: { status: 400, message: "Please choose a rating of 1 to 5 whole stars." },
  review_text_too_long: { status: 400, message: "Please keep your review to 2,000 characters or fewer." },
  review_edit_window_closed: {
    status: 409,
    message: "A review can be edited for 14 days after it is written; this one can no longer be changed.",
  },
  review_not_found: { status: 404, message: "No review found for this booking." },
  review_reply_not_expert: { status: 403, message: "Only the expert of this session can reply to its review." },
  review_reply_exists: { status: 409, message: "This review already has a reply." },
  review_reply_text_invalid: { status: 400, message: "Please write a reply of 1 to 2,000 characters." },
  review_hide_reason_required: { status: 400, message: "Please give a reason (up to 500 characters) for hiding this review." },
  // Pages of a month's earnings (issue 34.5)
  earnings_cursor_invalid: { status: 400, message: "That page of this month's bookings does not exist. Please open the month again." },
  earnings_page_size_invalid: { status: 400, message: "Ask for 1 to 500 bookings per page." },
  // Pages of an expert's reviews (issue 34.5)
  reviews_cursor_invalid: { status: 400, message: "That page of reviews does not exist. Please start again from the newest reviews." },
  reviews_page_size_invalid: { status: 400, message: "Ask for 1 to 100 reviews per page." },
  // Vetting (issue 30): an application, its review and the bookable rule.
  application_field_required: { status: 400, message: "Please fill in your expertise, title and what creators can expect." },
  application_bio_invalid: { status: 400, message: "Please write a bio of 80 to 5,000 characters." },
  application_link_invalid: { status: 400, message: "Please give one to ten links to your work, each starting with http:// or https://." },
  application_years_invalid: { status: 400, message: "Please give your years of experience as a whole number from 0 to 80." },
  application_standards_not_agreed: { status: 400, message: "Please read and agree to the current expert standards." },
  application_note_invalid: { status: 400, message: "Please write a note of up to 2,000 characters." },
  application_profile_needed: { status: 409, message: "Please save your profile before you apply." },
  application_already_submitted: {
    status: 409,
    message: "Your application is already with our team. We will mail you when it is reviewed.",
  },
  application_already_approved: { status: 409, message: "You are already approved." },
  application_reapply_wait: { status: 409, message: "You can apply again from {date}." },
  application_not_submitted: { status: 409, message: "There is no application waiting for a decision." },
  application_changed: { status: 409, message: "This application changed since you opened it. Please reload." },
  expert_not_approved: { status: 409, message: "This expert is not taking bookings yet." },
  expert_suspended: { status: 409, message: "This expert is not taking bookings at the moment." },
  expert_not_suspended: { status: 409, message: "This expert is not suspended." },
  listing_sort_invalid: {
    status: 400,
    message: "Please sort by recommended, best match, highest rated, lowest price or soonest available.",
  },
  listing_price_range_invalid: {
    status: 400,
    message: "Please give a price range of whole amounts, with the lowest price no higher than the highest.",
  },
  listing_length_invalid: { status: 400, message: "Please choose a session length of 30, 60, 90 or 120 minutes." },
  listing_available_invalid: { status: 400, message: "Availability can only be filtered to this week." },
  // Pages of the experts listing (issue 34.5): a cursor names an expert, who may have left the listing since.
  listing_cursor_invalid: {
    status: 400,
    message: "That page of experts is no longer there: the listing has changed. Please start again from the top.",
  },
  listing_page_size_invalid: { status: 400, message: "Ask for 1 to 500 experts per page." },
  vetting_reason_required: {
    status: 400,
    message: "Please give a reason (up to 500 characters) for verifying or unverifying this expert.",
  },

  // Early access (the landing page's request form)
  early_access_name_required: { status: 400, message: "Please enter your name." },
  early_access_email_invalid: { status: 400, message: "Please enter a valid email address." },
  early_access_role_required: { status: 400, message: "Please choose whether you are a creator or an expert." },
  early_access_need_required: { status: 400, message: "Please tell us what you need, in at most 2000 characters." },
  support_name_required: { status: 400, message: "Please enter your name, on one line." },
  support_email_invalid: { status: 400, message: "Please enter a valid email address, so we can answer you." },
  support_topic_required: { status: 400, message: "Please choose what your message is about." },
  support_message_required: { status: 400, message: "Please write your message, in at most 4000 characters." },

  // Time travel in the console (a booking as of an event, a calendar as of an instant)
  // A conversation per booking (issue 31.3)
  message_text_invalid: { status: 400, message: "Please write a message of 1 to 2,000 characters." },
  conversation_closed: { status: 409, message: "This conversation closed 7 days after the session." },
  // Disputes (issue 31.2)
  dispute_payment_unknown: { status: 404, message: "That payment is not one of this booking's." },
  dispute_test_provider_only: { status: 409, message: "Test disputes can only be opened on payments made with the test provider." },
  dispute_booking_refunded: {
    status: 409,
    message: "This booking was refunded in full: a bank would have nothing to take back. Refunded money cannot be disputed again here.",
  },
  // No-shows (issue 31.1)
  no_show_not_held: { status: 409, message: "Only a confirmed session can be reported as missed." },
  no_show_too_early: { status: 409, message: "You can report a no-show once the session has started." },
  no_show_window_closed: { status: 409, message: "No-shows can be reported until 48 hours after the session ends." },
  no_show_already_reported: { status: 409, message: "A no-show has already been reported for this session." },
  no_show_not_reported: { status: 409, message: "There is no open no-show report on this session." },
  no_show_not_yours: { status: 403, message: "Only the person reported as absent can contest the report." },
  no_show_already_contested: { status: 409, message: "This report has already been contested. Our team will decide." },
  no_show_contest_closed: { status: 409, message: "The 48 hours to contest this report have passed." },
  no_show_contest_open: { status: 409, message: "The reported person can still contest this report." },
  no_show_report_open: {
    status: 409,
    message: "A no-show report on this session is open: it ends when the report is settled, not before.",
  },
  session_cut_off_invalid: {
    status: 400,
    message: "Please choose a full refund until 24, 48 or 72 hours before the start, and moves until 12, 24 or 48 hours before it.",
  },
  no_show_note_invalid: { status: 400, message: "Please write a note of up to 1,000 characters." },
  no_show_reason_required: { status: 400, message: "Please give a reason (up to 1,000 characters) that both people will read." },
  as_of_point_required: { status: 400, message: "Choose one event of the booking (its position or its id) or one instant." },
  as_of_event_not_in_booking: { status: 404, message: "That event is not part of this booking's history." },
  as_of_before_booking: { status: 404, message: "This booking had not been requested yet at that time." },
  as_of_before_expert: { status: 404, message: "This expert had not saved a profile yet at that time." },

  // Pages of a person's bookings (issue 34.5)
  bookings_cursor_invalid: { status: 400, message: "That page of bookings does not exist. Please start again from the first page." },
  bookings_page_size_invalid: { status: 400, message: "Ask for 1 to 500 bookings per page." },

  // Read-your-writes by position (issue 34.1): the Consistency-Position a reply gave, sent back as it came
  consistency_position_invalid: {
    status: 400,
    message: "This page was asked for with a position the server did not give. Please reload the page.",
  },
  ...accountAndCalendarErrors,
  ...erasureErrors,
  ...passkeyErrors,

  projection_rebuild_running: { status: 409, message: "This read model is already being rebuilt." },

  // Infrastructure: a write lost a race too many times in a row.
  concurrency_conflict: { status: 409, message: "Someone else changed this at the same time. Please try again." },
} as const satisfies Record<string, Entry>;

export type ErrorCode = keyof typeof errorCatalogue;

const aliases = {
  email_exists: "user_already_exists",
  email_provider_disabled: "signup_disabled",
  over_email_send_rate_limit: "over_request_rate_limit",
  over_sms_send_rate_limit: "over_request_rate_limit",
  oauth_provider_not_supported: "provider_disabled",
} as const satisfies Record<string, ErrorCode>;

/** A code the spec lists under another code's message (and status). */
export type ErrorCodeAlias = keyof typeof aliases;

/** Aliases the spec lists under one message. */
export const errorCodeAliases: Record<string, ErrorCode> = aliases;

export function isErrorCode(value: string): value is ErrorCode {
  return Object.hasOwn(errorCatalogue, value);
}

/**
 * A refused command or request: a catalogue code plus values for the message's {placeholders}.
 * `as`: answer under one of the code's aliases (same status and message), where the spec names
 * the alias (e.g. over_email_send_rate_limit for the mail-sending routes' limit).
 */
export type Refusal = { code: ErrorCode; params?: Record<string, string>; as?: ErrorCodeAlias };

export function refusal(code: ErrorCode, params?: Record<string, string>): Refusal {
  return params ? { code, params } : { code };
}

export function refusalMessage(r: Refusal): string {
  const template: string = errorCatalogue[r.code].message;
  return template.replace(/\{(\w+)\}/g, (whole, name: string) => r.params?.[name] ?? whole);
}

export function refusalStatus(r: Refusal): number {
  return errorCatalogue[r.code].status;
}

/** The wire form of every error: `{ code, message }`. */
export function errorBody(r: Refusal): { code: ErrorCode | ErrorCodeAlias; message: string } {
  return { code: r.as ?? r.code, message: refusalMessage(r) };
}

export type Result<T> = { ok: true; value: T } | { ok: false; refusal: Refusal };
export const ok = <T>(value: T): Result<T> => ({ ok: true, value });
export const refused = <T = never>(code: ErrorCode, params?: Record<string, string>): Result<T> => ({
  ok: false,
  refusal: refusal(code, params),
});
