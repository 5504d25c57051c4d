// What other areas use of auth/: they import it from here, never from its files (eslint.config.js).
// Written by issue 28's layout script from the imports of the day; add an export when another area needs one.

export { familyEnded } from "./refresh-tokens.ts";
export { authMigrations } from "./schema.ts";
export { readLink, signLink } from "./signed-links.ts";
export { LinkToken } from "./bodies.ts";
export { findAccount } from "./accounts.ts";
export { setPreferences } from "./preferences.ts";
export type { PreferencesDeps } from "./preferences.ts";
export { lastLinkSentTo } from "./address-mails.ts";
export { ensureAdminAccount } from "./admin-account.ts";
export { attemptsPerMinute, authRoutes, mailRequestsPerQuarterHour } from "./routes.ts";
export { adminTwoFactorGate } from "./admin-two-factor.ts";
export type { AdminTwoFactor } from "./admin-two-factor.ts";
// For erasing an account (issue 33.2): the person proves it is them again, and their sign-ins end.
export type { Account } from "./accounts.ts";
export { verifyPassword } from "./password.ts";
export { proveSecondFactor } from "./second-factor.ts";
export { proveWithPasskey, reauthenticationOptions } from "./passkey-reauthentication.ts";
export { twoFactorKey } from "./authenticator.ts";
export { twoFactorOf } from "./two-factor-table.ts";
export { revokeUserSessions } from "./refresh-tokens.ts";
export { addressHash } from "./login-back-off.ts";
