import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { CLEARING_PERIOD_DAYS } from "@booking/contracts";
import { DEMO_CREATOR, DEMO_PASSWORD, seedDemoData } from "../../api/src/main/seed.ts";
import { releaseEarningsAt, sweepCompletionsAt } from "../../web/e2e/product-server.ts";
import { artifacts, consoleWalk } from "./console-walk.ts";

// The ledger in the console (issue 29.5), in a real Chromium against the real API: a booking of
// Ava's $150 session, paid and confirmed over HTTP, completed by the product's sweep, its share
// released after the clearing period (the sweep and the payout reactor run at that clock), and paid
// out on Ava's request. The trial balance balances, and the booking's money trail shows each posting.

type Session = { access_token: string; user: { id: string } };

const PRICE = 15_000;
const FEE = 2_250; // 15 %
const SHARE = PRICE - FEE;
const made = { expertId: "", bookingId: "", expertToken: "" };

const walk = consoleWalk(async ({ api, must, signIn }) => {
  await seedDemoData(api.app, api.ctx, { history: false });
  const creator = await signIn(DEMO_CREATOR.email, DEMO_PASSWORD);
  const ava = await must<Session>("POST", "/auth/login", { body: { email: "ava@example.com", password: DEMO_PASSWORD } });
  made.expertId = ava.user.id;
  made.expertToken = ava.access_token;
  const sessions = await must<{ id: string; title: string }[]>("GET", `/experts/${ava.user.id}/sessions`);
  const session = sessions.find((s) => s.title === "Audience growth plan")!;
  const { times } = await must<{ times: string[] }>("GET", `/sessions/${session.id}/availability`);
  const scheduled = times.find((t) => Date.parse(t) > Date.now() + 36 * 3_600_000)!;
  const { booking } = await must<{ booking: { id: string } }>("POST", "/bookings", {
    token: creator,
    body: { session_id: session.id, scheduled_time: scheduled },
  });
  made.bookingId = booking.id;
  const intent = await must<{ clientSecret: string }>("POST", "/stripe/test-intent", { token: creator, body: { bookingId: booking.id } });
  await must("POST", "/payments/test/confirm", {
    token: creator,
    body: { client_secret: intent.clientSecret, card_number: "4242 4242 4242 4242" },
  });
  await must("PATCH", `/bookings/${booking.id}/status`, { token: ava.access_token, body: { status: "confirmed" } });
  // The hour-long session over: completed by the product's sweep at that clock.
  const completedAt = new Date(Date.parse(scheduled) + 61 * 60_000).toISOString();
  expect(await sweepCompletionsAt(api, completedAt)).toBe(1);
  // Ava connects a test payout account; the clearing period passes; she asks for her payout.
  await must("POST", "/experts/me/payout-account", { token: ava.access_token });
  await must("POST", "/experts/me/payout-account/test-onboarding", { token: ava.access_token, body: { complete: true } });
  const cleared = new Date(Date.parse(completedAt) + CLEARING_PERIOD_DAYS * 86_400_000 + 60_000).toISOString();
  expect(await releaseEarningsAt(api, cleared)).toBe(1);
  await must("POST", "/experts/me/payouts", { token: ava.access_token, body: { currency: "USD" } });
});

const eventually = <T>(value: () => T | Promise<T>) => expect.poll(value, { timeout: 15_000, interval: 100 });
/** Money as the console writes it for an en-US admin: "USD 127.50". */
const usd = (cents: number) =>
  new Intl.NumberFormat("en-US", { style: "currency", currency: "USD", currencyDisplay: "code" }).format(cents / 100);

describe("the ledger in the console", () => {
  it("shows the trial balance: every account's debits, credits and balance, and USD balanced", async () => {
    // The payout reactor has paid Ava's payout through the test provider.
    const payouts = async () =>
      (await walk.must<{ payouts: { status: string }[] }>("GET", "/experts/me/payouts", { token: made.expertToken })).payouts;
    await expect.poll(payouts, { timeout: 30_000 }).toEqual([expect.objectContaining({ status: "paid" })]);
    await walk.page.goto(walk.consoleUrl("/trial-balance"));
    const totals = walk.page.getByTestId("total-USD");
    // Debits: the payment, the release, the transfer and the payout; credits the same. The list is read once per visit,
    // and the ledger's read model follows the log: reloaded until the payout is in it.
    const moved = 2 * PRICE + 2 * SHARE;
    await eventually(async () => {
      await walk.page.reload();
      await totals.waitFor();
      return totals.getByRole("cell").allTextContents();
    }).toEqual(["USD", usd(moved), usd(moved), "5", "Balanced"]);
    expect(await totals.getAttribute("data-balanced")).toBe("true");
    const account = async (name: string) =>
      (
        await walk.page
          .getByRole("row")
          .filter({ has: walk.page.locator("code", { hasText: new RegExp(`^${name}$`) }) })
          .getByRole("cell")
          .allTextContents()
      ).slice(1);
    // The platform keeps the fee in its cash; nothing is left held, owed to Ava or on her account.
    expect(await account("platform_cash")).toEqual(["USD", usd(PRICE), usd(SHARE), usd(FEE)]);
    expect(await account("platform_fee_revenue")).toEqual(["USD", usd(0), usd(FEE), usd(-FEE)]);
    expect(await account("bookings_held")).toEqual(["USD", usd(PRICE), usd(PRICE), usd(0)]);
    expect(await account("expert_payable")).toEqual(["USD", usd(SHARE), usd(SHARE), usd(0)]);
    expect(await account("expert_connected")).toEqual(["USD", usd(SHARE), usd(SHARE), usd(0)]);
    await walk.page.screenshot({ path: join(artifacts, "trial-balance.png"), fullPage: true, animations: "disabled" });
  });

  it("shows the booking's money trail: the payment, the release with the fee and Ava's share, the transfer", async () => {
    await walk.page.goto(walk.consoleUrl(`/bookings/${made.bookingId}/show`));
    const trail = walk.page.getByRole("table", { name: "Money trail" });
    const rows = trail.locator("tbody tr");
    await eventually(() => rows.count()).toBe(7);
    const entries = await rows.evaluateAll((trs) =>
      trs.map((tr) => {
        const cells = [...tr.querySelectorAll("td")].map((td) => td.textContent ?? "");
        return [tr.getAttribute("data-event-type"), tr.getAttribute("data-account"), cells[3], cells[4]];
      }),
    );
    const payable = `expert_payable:${made.expertId}`;
    const connected = `expert_connected:${made.expertId}`;
    expect([...entries].sort()).toEqual(
      [
        ["PaymentSucceeded", "platform_cash", usd(PRICE), ""],
        ["PaymentSucceeded", "bookings_held", "", usd(PRICE)],
        ["EarningReleased", "bookings_held", usd(PRICE), ""],
        ["EarningReleased", "platform_fee_revenue", "", usd(FEE)],
        ["EarningReleased", payable, "", usd(SHARE)],
        ["TransferSent", connected, usd(SHARE), ""],
        ["TransferSent", "platform_cash", "", usd(SHARE)],
      ].sort(),
    );
    // In the log's order: paid, released, transferred.
    expect([...new Set(entries.map((e) => e[0]))]).toEqual(["PaymentSucceeded", "EarningReleased", "TransferSent"]);
    expect(await walk.page.getByText("The trail does not balance").count()).toBe(0);
    await walk.page.screenshot({ path: join(artifacts, "money-trail.png"), fullPage: true, animations: "disabled" });
  });
});
