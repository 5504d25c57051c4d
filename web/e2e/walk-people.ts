import type { Browser, BrowserContext, Page } from "playwright-core";
import { expect } from "vitest";
import { seriousViolations, type AxeViolation } from "./chromium.ts";
import { signUpVerified } from "./mailbox.ts";
import { callApi } from "./product-api.ts";
import { signedInContext, type Credentials } from "./signed-in-browser.ts";

// What the two-browser walks share: people signed up through the product (the verification mail's link) with the current
// terms accepted, a signed-in browser context per person in their own zone, and axe on each screen, kept for the report.

export type AuthSession = { access_token: string; user: { id: string } };
/** A person: their session for the walk's API calls, and what a browser of theirs signs in with (a sign-in of its own). */
export type Person = { session: AuthSession; id: string; name: string; credentials: Credentials };

/** A verified account with the current terms accepted; `tag` keeps the address apart from other walks' and runs'. */
export async function signedUpPerson(
  productUrl: string,
  adminToken: string,
  role: "creator" | "expert",
  first: string,
  last: string,
  tag: string,
) {
  const credentials = { email: `${first.toLowerCase()}-${tag}@example.com`, password: `${first}-password-1` };
  const session = await signUpVerified<AuthSession>(productUrl, adminToken, {
    ...credentials,
    role,
    first_name: first,
    last_name: last,
  });
  const { version_id } = await callApi<{ version_id: string }>(productUrl, "GET", "/terms/latest", null);
  await callApi(productUrl, "POST", "/terms/accept", session.access_token, { version_id });
  return { session, id: session.user.id, name: `${first} ${last}`, credentials } satisfies Person;
}

/** Browser contexts of a walk, one per person: signed in, in their zone, closed together at the end. */
export function walkContexts(browser: () => Browser, productUrl: () => string) {
  const contexts: BrowserContext[] = [];
  return {
    async signedInPage(who: Person, timezoneId: string): Promise<Page> {
      const options = { timezoneId, locale: "en-US", viewport: { width: 1280, height: 900 } };
      const { context } = await signedInContext(browser(), productUrl(), who.credentials, options);
      context.setDefaultTimeout(20_000);
      contexts.push(context);
      const page = await context.newPage();
      page.on("pageerror", (e) => console.error(`[${who.name} page error]`, e.stack));
      return page;
    },
    async closeAll(): Promise<void> {
      for (const context of contexts) await context.close();
    },
  };
}

/** axe's serious and critical violations on each screen a walk checks, failing on any, with a count per screen for its log. */
export function walkAxe() {
  const report: Record<string, AxeViolation[]> = {};
  return {
    async check(page: Page, name: string): Promise<void> {
      const violations = await seriousViolations(page);
      report[name] = violations;
      expect(violations, `${name}: ${JSON.stringify(violations, null, 1)}`).toEqual([]);
    },
    counts: () => JSON.stringify(Object.fromEntries(Object.entries(report).map(([k, v]) => [k, v.length]))),
  };
}
