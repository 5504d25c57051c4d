// The error catalogue's entries for the expert's own calendars (issue 32) and two-factor sign-in and
// sign-ins (issue 33), kept apart so errors.ts stays readable; errors.ts spreads them into the catalogue.

export const accountAndCalendarErrors = {
  // The expert's own calendars (issue 32)
  calendar_schedule_first: {
    status: 409,
    message: "Set your weekly hours and timezone first: your calendars' all-day and floating events are read in your timezone.",
  },
  calendar_kind_invalid: { status: 400, message: "Choose how to connect: a secret iCal address or a CalDAV account." },
  calendar_url_invalid: { status: 400, message: "Please enter the calendar's full address, starting with https://." },
  caldav_credentials_required: { status: 400, message: "Please enter the CalDAV user name and app password." },
  calendar_address_not_https: { status: 422, message: "Only https:// calendar addresses can be connected." },
  calendar_address_refused: {
    status: 422,
    message: "That address leads into a private network, not to a public calendar. Please use the calendar's public https:// address.",
  },
  calendar_too_big: { status: 422, message: "That calendar is larger than 5 MB. Please connect a smaller calendar, or use CalDAV." },
  calendar_too_slow: { status: 422, message: "The calendar did not answer within 10 seconds. Please try again later." },
  calendar_unreachable: { status: 422, message: "The calendar's server could not be reached. Please check the address." },
  calendar_fetch_refused: {
    status: 422,
    message: "The calendar's server answered {status}. Please check that this is the calendar's secret iCal address.",
  },
  calendar_not_icalendar: { status: 422, message: "That address did not return a calendar (an iCalendar file)." },
  calendar_too_many_busy_times: {
    status: 422,
    message: "That calendar has more than {max} busy times in the next four weeks. Please connect a calendar with fewer events.",
  },
  caldav_sign_in_failed: { status: 422, message: "The CalDAV server did not accept that user name and app password." },
  caldav_no_calendars: { status: 422, message: "That CalDAV account has no calendars to read." },
  calendar_connection_not_found: { status: 404, message: "No connected calendar found." },
  calendar_connection_limit: { status: 409, message: "You can connect at most {max} calendars. Please disconnect one first." },
  calendar_already_connected: { status: 409, message: "This calendar is already connected." },
  calendar_not_in_connection: { status: 400, message: "That calendar is not one of this connection's calendars." },
  calendar_cannot_receive_bookings: { status: 400, message: "Only a CalDAV calendar can receive your bookings." },

  // Two-factor sign-in and the sign-ins a person sees (issue 33.4, 33.5). A wrong or spent code is bad input (400), never a
  // 401: on the signed-in routes a client must keep the session; only a sign-in that took too long is over (401).
  two_factor_code_wrong: { status: 400, message: "That code is not right. Enter the 6-digit code your authenticator app shows now." },
  two_factor_code_reused: { status: 400, message: "That code was already used. Wait for the next one." },
  recovery_code_wrong: { status: 400, message: "That recovery code is not right. Check it and try again." },
  recovery_code_spent: { status: 400, message: "That recovery code has already been used." },
  two_factor_proof_required: { status: 400, message: "Enter the code your authenticator app shows, or one of your recovery codes." },
  two_factor_challenge_expired: { status: 401, message: "Your sign-in took too long. Please enter your password again." },
  two_factor_challenge_invalid: { status: 400, message: "This sign-in cannot be continued. Please enter your password again." },
  two_factor_setup_not_started: {
    status: 409,
    message: "Start setting up two-factor sign-in first: scan the QR code, then enter its code.",
  },
  two_factor_not_enabled: { status: 409, message: "Two-factor sign-in is not on for your account." },
  two_factor_required_for_admins: {
    status: 403,
    message: "Admins cannot turn two-factor sign-in off. To move it to another app, set it up again instead.",
  },
  two_factor_enrolment_required: { status: 403, message: "Set up two-factor sign-in before using the console." },
  sign_in_not_found: { status: 404, message: "This sign-in was not found. It may have ended already." },
  // The refresh cookie (issue 33.6): a refresh the app's own page did not ask for (no proof header, or sent from another site).
  cross_site_request: {
    status: 403,
    message: "This request did not come from this site's own page. Please reload the page and try again.",
  },
} as const satisfies Record<string, { status: number; message: string }>;
