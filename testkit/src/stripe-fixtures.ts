import { existsSync, readFileSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";

// Stripe's own published example objects (issue 29), read from ../shared/stripe/fixtures3.json
// beside the repository, never copied in: each call gives a fresh copy for a test to fill in with
// its ids and amounts. The fixtures server (stripe-fixtures-server.ts) answers with them.

/** Stripe's example objects, kept beside the repository (see its README); STRIPE_FIXTURES names them elsewhere (a clone in another directory). */
export const STRIPE_FIXTURES_PATH =
  process.env.STRIPE_FIXTURES ?? resolve(dirname(fileURLToPath(import.meta.url)), "../../../shared/stripe/fixtures3.json");

export type StripeObject = Record<string, unknown>;
let loaded: Record<string, StripeObject> | null = null;

/** A fresh copy of one of Stripe's example objects (`account`, `transfer`, `payout`, `event`, ...). */
export function stripeFixture(resource: string): StripeObject {
  if (!loaded && !existsSync(STRIPE_FIXTURES_PATH))
    throw new Error(
      `Stripe's example objects are read from ${STRIPE_FIXTURES_PATH} (../shared/stripe/fixtures3.json beside the repository, or STRIPE_FIXTURES)`,
    );
  loaded ??= (JSON.parse(readFileSync(STRIPE_FIXTURES_PATH, "utf8")) as { resources: Record<string, StripeObject> }).resources;
  const found = loaded[resource];
  if (!found) throw new Error(`fixtures3.json has no ${resource}`);
  return structuredClone(found);
}

let eventCount = 0;
/** Stripe's example `event` carrying `object` as its data.object (as a webhook delivers it). */
export function stripeFixtureEvent(type: string, object: StripeObject, extra: StripeObject = {}): StripeObject {
  eventCount += 1;
  return {
    ...stripeFixture("event"),
    id: `evt_fixture${Date.now().toString(36)}${eventCount}`,
    type,
    created: Math.floor(Date.now() / 1000),
    data: { object },
    ...extra,
  };
}
