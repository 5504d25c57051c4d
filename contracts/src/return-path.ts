// Where a user goes back to after signing in, signing up, confirming their address and accepting
// the terms (issue 27.4): the page they were on, usually the session they chose to book. The web
// app and the API (which signs it into the verification link) read it by this one rule.

/** Longest path kept: a booking page with its query is well under it; a mail link stays short. */
export const RETURN_PATH_MAX_LENGTH = 256;

/**
 * A path on this site: one leading slash, then printable ASCII with no backslash. "//host" and
 * "/\host" are other hosts to a browser (it reads a backslash as a slash, and drops tabs and line
 * breaks, so "/\t/host" is "//host"); a scheme ("https:", "javascript:") never starts with "/".
 */
export function isReturnPath(value: string): boolean {
  return value.length <= RETURN_PATH_MAX_LENGTH && /^\/(?!\/)[\x21-\x5b\x5d-\x7e]*$/.test(value);
}

/** Only creators book: a user on their way to a booking page signs up as one, and the mail says where its link goes on to. */
export const isBookingPath = (path: string | null): boolean => path !== null && path.startsWith("/book-session/");

/** The return path in `value`, or null when there is none this site would follow. */
export const returnPathOf = (value: unknown): string | null => (typeof value === "string" && isReturnPath(value) ? value : null);
