import type { FastifyInstance, HTTPMethods } from "fastify";
import { API_PREFIX } from "../src/main/app.ts";

// The API's routes, written out by hand (method and path under /api/v1, with Fastify's parameter
// names). Both the authorization matrix and the fuzz test start from this list, and the matrix
// compares it with what Fastify actually serves, so a route added without a matrix row fails.

export type RouteMethod = Exclude<HTTPMethods, "HEAD" | "OPTIONS">;
export type RouteKey = `${RouteMethod} /${string}`;

export const ROUTE_CATALOGUE = [
  // health and docs
  "GET /healthz",
  "GET /readyz",
  "GET /docs",
  // terms
  "GET /terms/latest",
  "GET /terms/status",
  "POST /terms/accept",
  // experts
  "GET /experts",
  "GET /experts/search",
  "GET /experts/me",
  "PATCH /experts/me",
  "POST /experts/me/image",
  "DELETE /experts/me/image",
  "GET /experts/:slug",
  "GET /experts/:expertId/sessions",
  "GET /experts/:expertId/reviews",
  "GET /experts/:expertId/schedule",
  "POST /experts/:expertId/schedule",
  "PUT /experts/:expertId/booking-rules",
  "POST /experts/:expertId/time-off",
  "DELETE /experts/:expertId/time-off/:timeOffId",
  "GET /experts/:expertId/time-off/affected-bookings",
  "POST /experts/:expertId/date-overrides",
  "DELETE /experts/:expertId/date-overrides/:overrideId",
  "GET /me/export",
  "POST /me/erasure",
  "POST /me/erasure/passkey/options",
  "GET /admin/users/:id/export",
  "GET /experts/:expertId/calendars",
  "POST /experts/:expertId/calendars",
  "PATCH /experts/:expertId/calendars/:connectionId",
  "POST /experts/:expertId/calendars/:connectionId/sync",
  "DELETE /experts/:expertId/calendars/:connectionId",
  "GET /experts/me/earnings",
  "GET /experts/me/earnings/:month",
  "GET /experts/:expertId/earnings",
  "GET /experts/:expertId/earnings/:month",
  "GET /media/experts/:expertId/profile",
  // sessions
  "POST /sessions",
  "GET /sessions/:id",
  "PUT /sessions/:id",
  "DELETE /sessions/:id",
  "GET /sessions/:id/availability",
  // bookings
  "POST /bookings",
  "GET /bookings/creator/me",
  "GET /bookings/expert/me",
  "GET /bookings/creator/:userId",
  "GET /bookings/expert/:userId",
  "GET /bookings/:id",
  "PATCH /bookings/:bookingId/status",
  "PATCH /bookings/:bookingId/schedule",
  "PATCH /bookings/:bookingId/prep",
  "POST /bookings/:bookingId/notes",
  "GET /bookings/:bookingId/notes",
  "GET /bookings/:bookingId/proposable-times",
  "GET /bookings/:bookingId/cancellation",
  "POST /bookings/:bookingId/reschedule",
  "POST /bookings/:bookingId/reschedule/accept",
  "POST /bookings/:bookingId/reschedule/decline",
  "POST /bookings/:bookingId/reschedule/withdraw",
  "PUT /bookings/:bookingId/join-link",
  // no-shows (issue 31.1): a party reports or contests; the console lists the reports and decides
  "POST /bookings/:bookingId/no-show",
  "POST /bookings/:bookingId/no-show/contest",
  "GET /admin/no-shows",
  "GET /admin/no-shows/:id",
  "POST /admin/bookings/:bookingId/no-show/decision",
  // disputes (issue 31.2): the console's list, one dispute, its evidence; the test provider's stand-in for a bank
  "GET /admin/disputes",
  "GET /admin/disputes/:id",
  "GET /admin/disputes/:id/evidence.pdf",
  "POST /admin/payments/:paymentId/test-dispute",
  // a conversation per booking (issue 31.3): its parties read and write, mark read and mute; each reader's unread total
  "GET /bookings/:bookingId/messages",
  "POST /bookings/:bookingId/messages",
  "POST /bookings/:bookingId/messages/read",
  "PUT /bookings/:bookingId/messages/mute",
  "GET /me/unread-messages",
  // reviews
  "GET /bookings/:bookingId/review",
  "POST /bookings/:bookingId/review",
  "PATCH /bookings/:bookingId/review",
  "POST /bookings/:bookingId/review/reply",
  // realtime
  "GET /stream",
  // payments
  "POST /stripe/test-intent",
  "POST /stripe/webhook",
  "POST /payments/test/confirm",
  // auth
  "POST /auth/signup",
  "POST /auth/login",
  "POST /auth/refresh",
  "POST /auth/logout",
  "POST /auth/password",
  "GET /auth/me",
  "PATCH /auth/me",
  "POST /auth/verify",
  "POST /auth/verify/resend",
  "POST /auth/recover",
  "POST /auth/reset",
  "PUT /auth/me/preferences",
  // two-factor sign-in (issue 33.4) and the sign-ins a person sees and ends (issue 33.5)
  "GET /auth/two-factor",
  "POST /auth/two-factor/enrol",
  "POST /auth/two-factor/confirm",
  "DELETE /auth/two-factor",
  "POST /auth/login/two-factor",
  "GET /auth/sign-ins",
  "DELETE /auth/sign-ins/:id",
  // passkeys (issue 33.4): added, listed and removed on the account page; signing in with one alone or as the second factor
  "GET /auth/passkeys",
  "POST /auth/passkeys/options",
  "POST /auth/passkeys",
  "DELETE /auth/passkeys/:id",
  "POST /auth/passkeys/sign-in/options",
  "POST /auth/passkeys/sign-in",
  "POST /auth/login/two-factor/passkey/options",
  "POST /auth/login/two-factor/passkey",
  // mail (issue 16): a mail's unsubscribe link
  "POST /mail/unsubscribe",
  // early access (the landing page's request form)
  "POST /early-access",
  "POST /support/messages",
  // admin (ra-data-simple-rest)
  "GET /admin/bookings",
  "GET /admin/bookings/:id",
  "GET /admin/bookings/:id/as-of",
  "GET /admin/booking-events",
  "GET /admin/booking-events/:id",
  "GET /admin/terms-acceptances",
  "GET /admin/terms-acceptances/export.csv",
  "GET /admin/terms-acceptances/:id",
  "GET /admin/early-access",
  "GET /admin/early-access/export.csv",
  "GET /admin/users",
  "GET /admin/users/:id",
  "GET /admin/experts",
  "GET /admin/experts/:id",
  "PUT /admin/experts/:id",
  "GET /admin/experts/:id/calendar/as-of",
  "GET /admin/events",
  "GET /admin/events/:id",
  "GET /admin/sessions",
  "GET /admin/sessions/:id",
  "GET /admin/projections",
  "GET /admin/projections/:id",
  "POST /admin/projections/:id/rebuild",
  "GET /admin/metrics-summary",
  "GET /admin/reviews",
  "GET /admin/reviews/:id",
  "PUT /admin/reviews/:id",
  "GET /admin/refunds",
  "GET /admin/refunds/:id",
  "POST /admin/refunds",
  "GET /admin/unmatched-refunds",
  "GET /admin/mailbox",
  "GET /admin/mailbox/:id",
  // calendar invites and the personal feed (issue 17)
  "GET /bookings/:bookingId/calendar.ics",
  "GET /calendar/feed",
  "POST /calendar/feed/regenerate",
  "GET /calendar/:file",
  // experts get paid (issue 29): the expert's payout account, balance, payouts and statements; a creator's receipts;
  // the console's payout accounts, transfers, payouts, ledger and reconciliation
  "GET /experts/me/payout-account",
  "POST /experts/me/payout-account",
  "POST /experts/me/payout-account/test-onboarding",
  "GET /experts/me/balance",
  "GET /experts/me/payouts",
  "POST /experts/me/payouts",
  "GET /experts/me/statements",
  "GET /experts/me/statements/:file",
  "GET /bookings/:bookingId/receipts",
  "GET /bookings/:bookingId/receipts/:file",
  "GET /admin/payout-accounts",
  "GET /admin/payout-accounts/:id",
  "POST /admin/payout-accounts/:expertId/hold",
  "POST /admin/payout-accounts/:expertId/resume",
  "GET /admin/payout-accounts/:expertId/statement",
  "GET /admin/payout-accounts/:expertId/statements/:file",
  "GET /admin/transfers",
  "GET /admin/payouts",
  "GET /admin/ledger/trial-balance",
  "GET /admin/bookings/:id/money-trail",
  "GET /admin/reconciliation",
  "POST /admin/reconciliation/run",
  // vetting (issue 30): the expert's application and standing; the console's queue, review, suspension and standing
  "GET /experts/me/application",
  "POST /experts/me/application",
  "GET /experts/me/standing",
  "GET /admin/applications",
  "GET /admin/applications/:id",
  "GET /admin/applications/:id/as-of",
  "POST /admin/applications/:id/review",
  "POST /admin/applications/:id/notes",
  "POST /admin/applications/:id/decision",
  "POST /admin/experts/:id/suspension",
  "POST /admin/experts/:id/reinstatement",
  "GET /admin/experts/:id/standing",
] as const satisfies readonly RouteKey[];

export type CatalogueRoute = (typeof ROUTE_CATALOGUE)[number];

export function splitRoute(key: string): { method: RouteMethod; path: string } {
  const space = key.indexOf(" ");
  return { method: key.slice(0, space) as RouteMethod, path: key.slice(space + 1) };
}

/** Parameter names do not matter for matching: `/experts/:slug` and `/experts/:expertId` are one node. */
export const normalisePath = (path: string): string => path.replace(/:[^/]+/g, ":");

/** The full URL path of a catalogue route, with its parameters filled in (each value is percent-encoded). */
export function urlOf(key: string, params: Record<string, string> = {}, query = ""): string {
  const { path } = splitRoute(key);
  const filled = path.replace(/:([A-Za-z]+)/g, (_m, name: string) => {
    const value = params[name];
    if (value === undefined) throw new Error(`${key}: no value for :${name}`);
    return encodeURIComponent(value);
  });
  return `${API_PREFIX}${filled}${query}`;
}

/**
 * Every route Fastify serves, as `METHOD /path` below /api/v1 (parameters normalised to `:`,
 * HEAD left out: Fastify adds it to every GET). Read from `printRoutes({ commonPrefix: false })`,
 * whose lines look like `│   ├── /search (GET, HEAD)`, four columns per level of nesting.
 */
export function registeredRoutes(app: FastifyInstance): string[] {
  const text = app.printRoutes({ commonPrefix: false });
  const stack: string[] = [];
  const found = new Set<string>();
  for (const line of text.split("\n")) {
    const m = /^((?:│ {3}| {4})*)[├└]── (.+?)(?: \(([A-Z, ]+)\))?$/.exec(line);
    if (!m) continue;
    const depth = m[1]!.length / 4;
    stack.length = depth;
    const path = (stack[depth - 1] ?? "") + m[2]!;
    stack.push(path);
    for (const method of (m[3] ?? "").split(",").map((s) => s.trim())) {
      if (!method || method === "HEAD") continue;
      // `/:slug|:expertId`: one node holding routes with different parameter names.
      found.add(`${method} ${normalisePath(path.replace(/:[^/]+(?:\|:[^/]+)+/g, ":"))}`);
    }
  }
  // The API's routes only: the built apps and the /dev/mailbox redirect live outside it.
  return [...found].filter((route) => route.split(" ")[1]!.startsWith(`${API_PREFIX}/`)).sort();
}

/** The catalogue as `registeredRoutes` spells routes. */
export const normalisedCatalogue = (): string[] =>
  ROUTE_CATALOGUE.map((key) => {
    const { method, path } = splitRoute(key);
    return `${method} ${normalisePath(API_PREFIX + path)}`;
  }).sort();
