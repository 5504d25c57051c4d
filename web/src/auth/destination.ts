import { returnPathOf } from "@booking/contracts";

export { isBookingPath } from "@booking/contracts";

// Where a user was going when they had to log in or sign up first (issue 27.4): usually the
// session they chose to book. It travels as ?next= (links, the verification mail's link) or as the
// guard's state; only a path on this site is followed (contracts' isReturnPath), never another host.

/** The destination in the address (?next=) or in the guard's state, or null. */
export function destinationOf(location: { search: string; state: unknown }): string | null {
  const next = new URLSearchParams(location.search).get("next");
  return returnPathOf(next) ?? returnPathOf((location.state as { from?: unknown } | null)?.from);
}

/** The login or sign-up page, coming back to `destination` afterwards. */
export const authPageFor = (page: "/login" | "/signup", destination: string | null): string =>
  destination ? `${page}?next=${encodeURIComponent(destination)}` : page;

/** "Login as a creator to book": the login page, and then the session's booking page. */
export const loginToBook = (sessionId: string): string => authPageFor("/login", `/book-session/${encodeURIComponent(sessionId)}`);
