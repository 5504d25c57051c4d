import type pg from "pg";
import type { FastifyRequest } from "fastify";
import { refuse } from "../http/index.ts";
import { secondFactorsOf } from "./passkey-table.ts";

// Admins can refund money and read everyone's data: they sign in with a second factor (issue 33.4).
// An admin without one still gets a session (how else would they set one up?), but the console's
// routes refuse them until it is on. ADMIN_TWO_FACTOR=optional lifts the rule, for the browser walks
// that sign the seeded admin in with a password alone; the API suites enrol their admins instead.

/** ADMIN_TWO_FACTOR: whether admins must have two-factor sign-in on to use the console's routes. */
export type AdminTwoFactor = "required" | "optional";

/** Whether an account of `role` must keep two-factor sign-in on. */
export const twoFactorRequiredFor = (role: string, setting: AdminTwoFactor): boolean => role === "admin" && setting === "required";

/**
 * onRequest, after the auth guard: an admin's call to a console route (`{prefix}/admin/...`) is 403
 * two_factor_enrolment_required until their second factor (a code or a passkey) is on. Anyone else passes on to the
 * route's own guard (a creator is refused there as before), so only admins pay the extra read.
 */
export function adminTwoFactorGate(db: pg.Pool, prefix: string) {
  const consoleRoutes = `${prefix}/admin/`;
  return async (request: FastifyRequest): Promise<void> => {
    if (request.actor?.role !== "admin") return;
    // The matched route's pattern, not the raw URL: no encoding of the path can slip past it.
    if (!request.routeOptions.url?.startsWith(consoleRoutes)) return;
    // A passkey counts as the second factor too: the device it lives on, and the person it verifies.
    if ((await secondFactorsOf(db, request.actor.userId)).length === 0) refuse("two_factor_enrolment_required");
  };
}
