import { fireEvent, screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it, vi } from "vitest";
import { errorCatalogue } from "@booking/contracts";
import { AboutPage } from "../about/about-page.tsx";
import { AppRoutes } from "../routes.tsx";
import { Footer } from "../shared/layout.tsx";
import { fakeApi, renderScreen, signedOut, writes } from "../../test/screen-harness.tsx";

// Issue 27.3: "Need help?" led to a dead domain. It leads to our own help page, which explains
// booking, payment, refunds and vetting, answers the FAQ, and reaches support by a contact form.

afterEach(() => vi.unstubAllGlobals());

async function openHelp() {
  renderScreen(<AppRoutes />, { route: "/help", path: "/*", auth: signedOut });
  await screen.findByRole("heading", { level: 1, name: "Help" }, { timeout: 10_000 });
}

describe("help page", () => {
  it("is where 'Need help?' leads, in the same tab", () => {
    renderScreen(<Footer />);
    const link = within(screen.getByRole("navigation", { name: "Footer" })).getByRole("link", { name: "Need help?" });
    expect(link).toHaveAttribute("href", "/help");
    expect(link).not.toHaveAttribute("target");
  });

  it("explains booking, payment, refunds and vetting, and answers the FAQ, to a visitor", async () => {
    fakeApi({});
    await openHelp();
    for (const heading of [
      "Booking a session",
      "Paying",
      "Cancelling and refunds",
      "How experts are vetted",
      "Frequently asked questions",
      "Contact us",
    ]) {
      expect(screen.getByRole("heading", { level: 2, name: heading })).toBeInTheDocument();
    }
    // Issue 31.4: the cut-offs are each session's, chosen within the contract's bounds, and a booking keeps its terms.
    expect(
      screen.getByText(
        /Each expert chooses the cut-offs for each of their sessions: a full refund until 24, 48 or 72 hours before the start/,
      ),
    ).toHaveTextContent("asking to move it until 12, 24 or 48 hours before.");
    expect(screen.getByText(/shown before you pay/)).toHaveTextContent("a booking keeps the terms it was made under");
  });

  it("sends a message to support and says where the answer will come", async () => {
    const calls = fakeApi({ "POST /support/messages": { status: 204 } });
    await openHelp();
    const form = screen.getByRole("form", { name: "Contact support" });
    fireEvent.change(within(form).getByRole("textbox", { name: /Your name/ }), { target: { value: "Nora Maker" } });
    fireEvent.change(within(form).getByRole("textbox", { name: /Email/ }), { target: { value: "nora@example.com" } });
    await userEvent.click(within(form).getByRole("combobox", { name: /What is it about/ }));
    await userEvent.click(await screen.findByRole("option", { name: "A refund" }));
    fireEvent.change(within(form).getByRole("textbox", { name: /Your message/ }), { target: { value: "Where is my refund?" } });
    await userEvent.click(within(form).getByRole("button", { name: "Send message" }));
    expect(await screen.findByRole("status")).toHaveTextContent("we will answer you at nora@example.com");
    expect(writes(calls)).toEqual([
      {
        method: "POST",
        path: "/support/messages",
        body: { name: "Nora Maker", email: "nora@example.com", topic: "refund", message: "Where is my refund?" },
      },
    ]);
  });

  it("says what is missing before sending anything", async () => {
    const calls = fakeApi({});
    await openHelp();
    await userEvent.click(screen.getByRole("button", { name: "Send message" }));
    expect(screen.getByText(errorCatalogue.support_name_required.message)).toBeInTheDocument();
    expect(screen.getByText(errorCatalogue.support_topic_required.message)).toBeInTheDocument();
    expect(writes(calls)).toEqual([]);
  });

  it("has an About page that says what the marketplace is, and leads to help", () => {
    renderScreen(<AboutPage />);
    for (const heading of ["Why we exist", "How it works", "Who the experts are"])
      expect(screen.getByRole("heading", { level: 2, name: heading })).toBeInTheDocument();
    expect(screen.queryByText(/coming soon/)).toBeNull();
    expect(screen.getByRole("link", { name: "help page" })).toHaveAttribute("href", "/help");
  });
});
