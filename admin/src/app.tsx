// First: the contracts build their schemas as this module's imports load (csp.ts says why).
import "./csp.ts";
import { lazy } from "react";
import { Admin, CustomRoutes, Resource, useLogin } from "react-admin";
import { HashRouter, Route } from "react-router-dom";
import { authProvider } from "./auth-provider.ts";
import { CALENDAR_AT_ROUTE } from "./calendar-at/calendar-at-path.ts";
import { dataProvider } from "./data-provider.ts";
import { ConsoleLayout } from "./layout/console-layout.tsx";
import { consoleTheme } from "./layout/console-theme.ts";
import { SignInPage } from "./layout/sign-in-page.tsx";
import { LoginProvider } from "./sign-in-calls.ts";

const Dashboard = lazy(async () => ({ default: (await import("./dashboard/dashboard.tsx")).Dashboard }));
const CalendarAtPage = lazy(async () => ({ default: (await import("./calendar-at/calendar-at-page.tsx")).CalendarAtPage }));

/**
 * The resources, fetched once an admin is signed in: the sign-in page loads neither them nor
 * react-admin (index.tsx, issue 34), and the lists, pages and forms come in chunks of their own
 * (issue 19). react-admin takes one function child and runs it again when the permissions change,
 * so signing in brings them.
 * Exported for the tests that go through every resource the console registers.
 */
export async function resources(permissions: unknown) {
  if (permissions !== "admin") return null;
  const [
    bookings,
    termsAcceptances,
    earlyAccess,
    users,
    applications,
    experts,
    sessions,
    events,
    projections,
    reviews,
    refunds,
    unmatched,
    mailbox,
    noShows,
    disputes,
  ] = await Promise.all([
    import("./bookings/index.ts"),
    import("./terms-acceptances/index.ts"),
    import("./early-access/index.ts"),
    import("./users/index.ts"),
    // Vetting (issue 30): the queue of applications waiting for a decision, beside the experts.
    import("./applications/index.ts"),
    import("./experts/index.ts"),
    import("./sessions/index.ts"),
    import("./events/index.ts"),
    import("./projections/index.ts"),
    import("./reviews/index.ts"),
    import("./refunds/index.ts"),
    import("./refunds/unmatched-index.ts"),
    import("./mailbox/index.ts"),
    // No-shows (issue 31.1): the contested reports an admin decides.
    import("./no-shows/index.ts"),
    // Disputes and chargebacks (issue 31.2): the open disputes by evidence deadline, their evidence as a PDF.
    import("./disputes/index.ts"),
  ]);
  // The money screens (issue 29): payout accounts, transfers, payouts, the trial balance, the reconciliation.
  const [payoutAccounts, transfers, payouts, trialBalance, reconciliation] = await Promise.all([
    import("./payouts/index.ts"),
    import("./payouts/transfers-index.ts"),
    import("./payouts/payouts-index.ts"),
    import("./ledger/trial-balance-index.ts"),
    import("./reconciliation/index.ts"),
  ]);
  return (
    <>
      <Resource name="bookings" {...bookings.default} />
      <Resource name="no-shows" {...noShows.default} />
      <Resource name="disputes" {...disputes.default} />
      <Resource name="terms-acceptances" {...termsAcceptances.default} />
      <Resource name="early-access" {...earlyAccess.default} />
      <Resource name="users" {...users.default} />
      <Resource name="applications" {...applications.default} />
      <Resource name="experts" {...experts.default} />
      <Resource name="sessions" {...sessions.default} />
      <Resource name="events" {...events.default} />
      <Resource name="projections" {...projections.default} />
      <Resource name="reviews" {...reviews.default} />
      <Resource name="refunds" {...refunds.default} />
      <Resource name="unmatched-refunds" {...unmatched.default} />
      <Resource name="payout-accounts" {...payoutAccounts.default} />
      <Resource name="transfers" {...transfers.default} />
      <Resource name="payouts" {...payouts.default} />
      <Resource name="trial-balance" {...trialBalance.default} />
      <Resource name="reconciliation" {...reconciliation.default} />
      {(await mailbox.devMailboxShown()) ? <Resource name="mailbox" {...mailbox.default} /> : null}
    </>
  );
}

/**
 * The sign-in page as react-admin's login page, once the console is loaded (a sign-out, a session
 * that ended): react-admin's login, which goes back to the page the admin was on.
 */
function ConsoleSignInPage() {
  return (
    <LoginProvider value={useLogin()}>
      <SignInPage />
    </LoginProvider>
  );
}

/**
 * The admin console, loaded once an admin has signed in (index.tsx). Routes live after the `#`:
 * the API serves the built files at /admin/ with no fallback to index.html, so deep links must
 * not depend on the path.
 *
 * The router is ours rather than react-admin's built-in one for a single reason: navigations must
 * not run as React transitions. Signing out navigates to the sign-in page and resets react-admin's
 * store and query cache at once; as a transition the navigation keeps being interrupted by that
 * reset, the sign-out runs again and again (each one a history.pushState) and the sign-in page
 * takes seconds to appear (react-admin issue #10764).
 */
export function App() {
  return (
    <HashRouter useTransitions={false}>
      <Admin
        title="Expert sessions admin"
        theme={consoleTheme}
        layout={ConsoleLayout}
        dataProvider={dataProvider}
        authProvider={authProvider}
        loginPage={ConsoleSignInPage}
        dashboard={Dashboard}
        requireAuth
        disableTelemetry
      >
        {resources}
        <CustomRoutes>
          <Route path={CALENDAR_AT_ROUTE} element={<CalendarAtPage />} />
        </CustomRoutes>
      </Admin>
    </HashRouter>
  );
}
