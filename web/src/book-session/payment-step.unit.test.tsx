import { screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it, vi } from "vitest";
import type { Booking } from "../shared/api-types.ts";
import { fakeApi, renderScreen, signedInAs } from "../../test/screen-harness.tsx";
import { PaymentStep, validateCard } from "./payment-step.tsx";

const booking = { id: "b-1", session_title: "Deck review", scheduled_time: "2030-03-05T09:00:00.000Z", price: 150 } as Booking;

async function fillCard(number: string, expiry: string, cvc: string) {
  await userEvent.type(await screen.findByLabelText("Card number"), number);
  await userEvent.type(screen.getByLabelText("Expiry (MM/YY)"), expiry);
  await userEvent.type(screen.getByLabelText("CVC"), cvc);
  await userEvent.click(screen.getByRole("button", { name: "Confirm & Pay" }));
}

describe("the test card form", () => {
  it("refuses an expiry date in the past before charging anything", async () => {
    const calls = fakeApi({
      "POST /stripe/test-intent": { status: 200, body: { clientSecret: "secret", paymentId: "p", amount: 15000, publishableKey: null } },
    });
    const onPaid = vi.fn();
    renderScreen(<PaymentStep booking={booking} onPaid={onPaid} onStartOver={() => undefined} />, { auth: signedInAs("creator") });
    await fillCard("4242 4242 4242 4242", "01/20", "123");
    expect(screen.getByText("Your card's expiry date is in the past.")).toBeInTheDocument();
    expect(calls.some((c) => c.path === "/payments/test/confirm")).toBe(false);
    expect(onPaid).not.toHaveBeenCalled();
  });

  it("asks for the 4-digit code of an American Express card and the 3-digit code of others", async () => {
    const calls = fakeApi({
      "POST /stripe/test-intent": { status: 200, body: { clientSecret: "secret", paymentId: "p", amount: 15000, publishableKey: null } },
    });
    renderScreen(<PaymentStep booking={booking} onPaid={() => undefined} onStartOver={() => undefined} />, { auth: signedInAs("creator") });
    await fillCard("3782 822463 10005", "12/40", "123");
    expect(screen.getByText("Please enter the 4-digit security code on the front of your American Express card.")).toBeInTheDocument();
    expect(calls.some((c) => c.path === "/payments/test/confirm")).toBe(false);
  });

  it("rules: expiry good through its month; CVC length by brand", () => {
    const now = new Date(2026, 2, 15); // 15 March 2026
    const card = { number: "4242 4242 4242 4242", expiry: "03/26", cvc: "123" };
    expect(validateCard(card, now)).toEqual({});
    expect(validateCard({ ...card, expiry: "02/26" }, now).expiry).toBe("Your card's expiry date is in the past.");
    expect(validateCard({ ...card, expiry: "01/20" }, now).expiry).toBe("Your card's expiry date is in the past.");
    expect(validateCard({ ...card, expiry: "13/30" }, now).expiry).toBe("Please enter the expiry date as MM/YY.");
    expect(validateCard({ ...card, cvc: "1234" }, now).cvc).toBe("Please enter the 3-digit security code on the back of your card.");
    expect(validateCard({ ...card, cvc: "12a" }, now).cvc).toBeDefined();
    expect(validateCard({ number: "3714 496353 98431", expiry: "12/30", cvc: "1234" }, now)).toEqual({});
    expect(validateCard({ number: "3714 496353 98431", expiry: "12/30", cvc: "123" }, now).cvc).toMatch(/4-digit/);
  });
});
