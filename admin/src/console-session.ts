// What the sign-in page and auth-provider.ts share, apart from auth-provider.ts: the page's first
// load (issue 34) has no session client, contracts or zod, and still knows whether this browser
// is signed in and how a sign-in step is refused.

/** The localStorage key of the console's signed-in marker (the session client's; the session itself is in memory and a cookie). */
export const SESSION_MARKER_KEY = "expert-sessions.admin.session";

/** Whether this browser says it is signed in to the console: a page load then opens the console, which takes the session up from the cookie. */
export function signedInBefore(): boolean {
  try {
    return localStorage.getItem(SESSION_MARKER_KEY) !== null;
  } catch {
    // Storage refused (private mode): no marker, so the sign-in page.
    return false;
  }
}

/** A refusal of a sign-in step: the API's message, and its code (a challenge that ran out sends the page back to the password). */
export class SignInRefused extends Error {
  constructor(
    message: string,
    readonly code: string | null,
  ) {
    super(message);
    this.name = "SignInRefused";
  }
}
