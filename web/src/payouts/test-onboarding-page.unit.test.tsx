import { screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import type { PayoutAccountReply } from "@booking/contracts";
import { fakeApi, renderScreen, signedInAs, writes } from "../../test/screen-harness.tsx";
import { AppRoutes } from "../routes.tsx";
import { PayoutsReturnPage } from "./payouts-return-page.tsx";
import { TestOnboardingPage } from "./test-onboarding-page.tsx";

/** Replies and renders can take a few seconds on a loaded machine (the default wait is one second). */
const WAIT = { timeout: 10_000 };

// Issue 29.2: the test provider's stand-in for Stripe's onboarding, and the page the onboarding comes back to.

const auth = signedInAs("expert", { id: "u7" });
const reply = (status: PayoutAccountReply["status"]): PayoutAccountReply => ({
  status,
  provider: "test",
  account_id: "acct_test_1",
  held: false,
  held_reason: null,
  fee_basis_points: 1500,
});
const dashboard = { "/expert-dashboard/:id/payments": <p>Payments tab</p> };

function onboarding() {
  const calls = fakeApi({
    "POST /experts/me/payout-account/test-onboarding": (body) => ({
      status: 200,
      body: reply((body as { complete: boolean }).complete ? "enabled" : "incomplete"),
    }),
  });
  renderScreen(<TestOnboardingPage />, { auth, route: "/payouts/test-onboarding", path: "/payouts/test-onboarding", others: dashboard });
  return calls;
}

describe("test payout onboarding", () => {
  it("says it stands in for Stripe's onboarding; completing it goes back to the Payments tab", async () => {
    const calls = onboarding();
    expect(screen.getByRole("heading", { level: 1, name: "Test Payout Onboarding" })).toBeInTheDocument();
    expect(screen.getByText(/stands in for Stripe's onboarding/)).toBeInTheDocument();
    await userEvent.click(screen.getByRole("button", { name: "Complete onboarding" }));
    await waitFor(() => expect(screen.getByTestId("location")).toHaveTextContent("/expert-dashboard/u7/payments"), WAIT);
    expect(writes(calls)).toEqual([{ method: "POST", path: "/experts/me/payout-account/test-onboarding", body: { complete: true } }]);
  });

  it("can be left incomplete", async () => {
    const calls = onboarding();
    await userEvent.click(screen.getByRole("button", { name: "Leave it incomplete" }));
    await waitFor(() => expect(screen.getByTestId("location")).toHaveTextContent("/expert-dashboard/u7/payments"), WAIT);
    expect(writes(calls)[0]!.body).toEqual({ complete: false });
  });

  it("shows the API's refusal and stays", async () => {
    fakeApi({
      "POST /experts/me/payout-account/test-onboarding": { status: 409, body: { code: "payout_account_required", message: "x" } },
    });
    renderScreen(<TestOnboardingPage />, { auth, route: "/payouts/test-onboarding", path: "/payouts/test-onboarding", others: dashboard });
    await userEvent.click(screen.getByRole("button", { name: "Complete onboarding" }));
    expect(await screen.findByRole("alert", undefined, WAIT)).toHaveTextContent("Connect your payout account before asking for a payout.");
    expect(screen.getByTestId("location")).toHaveTextContent("/payouts/test-onboarding");
  });

  it("back from the provider's onboarding, the expert lands on their Payments tab", async () => {
    renderScreen(<PayoutsReturnPage />, { auth, route: "/payouts?onboarding=done", path: "/payouts", others: dashboard });
    await waitFor(() => expect(screen.getByTestId("location")).toHaveTextContent("/expert-dashboard/u7/payments"), WAIT);
  });

  it("a link that ran out is asked for again and followed", async () => {
    const calls = fakeApi({
      "POST /experts/me/payout-account": { status: 201, body: { onboarding_url: "/payouts/test-onboarding?account=acct_test_1" } },
    });
    renderScreen(<PayoutsReturnPage />, {
      auth,
      route: "/payouts?onboarding=refresh",
      path: "/payouts",
      others: { "/payouts/test-onboarding": <p>Test onboarding</p> },
    });
    await waitFor(() => expect(screen.getByTestId("location")).toHaveTextContent("/payouts/test-onboarding"), WAIT);
    expect(writes(calls)).toHaveLength(1);
  });

  it("is a route of the app, for experts", async () => {
    fakeApi({});
    renderScreen(<AppRoutes />, { auth, route: "/payouts/test-onboarding", path: "/*" });
    expect(await screen.findByRole("heading", { level: 1, name: "Test Payout Onboarding" }, { timeout: 15_000 })).toBeInTheDocument();
  });
});
