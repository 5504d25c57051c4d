import { Admin, Resource } from "react-admin";
import { HashRouter } from "react-router-dom";
import { authProvider } from "./auth-provider.ts";
import bookings from "./bookings/index.ts";
import { Dashboard } from "./dashboard/dashboard.tsx";
import { dataProvider } from "./data-provider.ts";
import earlyAccess from "./early-access/index.ts";
import events from "./events/index.ts";
import experts from "./experts/index.ts";
import { SignInPage } from "./layout/sign-in-page.tsx";
import mailbox, { devMailboxShown } from "./mailbox/index.ts";
import projections from "./projections/index.ts";
import refunds from "./refunds/index.ts";
import reviews from "./reviews/index.ts";
import sessions from "./sessions/index.ts";
import termsAcceptances from "./terms-acceptances/index.ts";
import users from "./users/index.ts";

/**
 * The admin console. Routes live after the `#`: the API serves the built files at /admin/ with no
 * fallback to index.html, so deep links must not depend on the path.
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
      <Admin title="Expert sessions admin" dataProvider={dataProvider} authProvider={authProvider} loginPage={SignInPage} dashboard={Dashboard} requireAuth disableTelemetry>
        <Resource name="bookings" {...bookings} />
        <Resource name="terms-acceptances" {...termsAcceptances} />
        <Resource name="early-access" {...earlyAccess} />
        <Resource name="users" {...users} />
        <Resource name="experts" {...experts} />
        <Resource name="sessions" {...sessions} />
        <Resource name="events" {...events} />
        <Resource name="projections" {...projections} />
        <Resource name="reviews" {...reviews} />
        <Resource name="refunds" {...refunds} />
        {async () => ((await devMailboxShown()) ? <Resource name="mailbox" {...mailbox} /> : null)}
      </Admin>
    </HashRouter>
  );
}
