import { fireEvent, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it, vi } from "vitest";
import { LandingPage } from "../landing/landing-page.tsx";
import { AppRoutes } from "../routes.tsx";
import { fakeApi, renderScreen, signedOut, writes } from "../../test/screen-harness.tsx";

// Issue 13.1: the landing page's way to early access opened /early-access, which answered "Page not found".
// Since issue 27.1 the calls to action lead into the marketplace and early access is one link beside them.

afterEach(() => vi.unstubAllGlobals());

/** Where the landing page's early-access link leads, as a path. */
function ctaTarget(): string {
  const { unmount } = renderScreen(<LandingPage />);
  const target = new URL(screen.getByRole("link", { name: /invitation to try it first/ }).getAttribute("href")!, "http://x").pathname;
  unmount();
  expect(target).toBe("/early-access");
  return target;
}

/** The page is a chunk of its own (issue 19): it is on screen once its heading is. */
async function openForm() {
  renderScreen(<AppRoutes />, { route: ctaTarget(), path: "/*", auth: signedOut });
  await screen.findByRole("heading", { name: "Request Early Access" });
}
const field = (name: RegExp) => screen.getByRole("textbox", { name });

async function fillIn(o: { name?: string; email?: string; role?: "Creator" | "Expert"; need?: string }) {
  if (o.name !== undefined) await userEvent.type(field(/^Name/), o.name);
  if (o.email !== undefined) await userEvent.type(field(/^Email/), o.email);
  if (o.role) await userEvent.click(screen.getByRole("radio", { name: o.role }));
  if (o.need !== undefined) fireEvent.change(field(/What do you need/), { target: { value: o.need } });
}

describe("early access page", () => {
  it("is where the landing page's calls to action lead, for a visitor who is not signed in", async () => {
    await openForm();
    expect(screen.queryByRole("heading", { name: "Page not found" })).not.toBeInTheDocument();
    expect(screen.getByRole("heading", { name: "Request Early Access" })).toBeInTheDocument();
    expect(screen.getByRole("form", { name: "Request early access" })).toBeInTheDocument();
    expect(screen.getByRole("radiogroup", { name: "I am a" })).toBeInTheDocument();
  });

  it("says what is missing before sending anything, and clears each message as its field is fixed", async () => {
    const calls = fakeApi({});
    await openForm();
    await userEvent.click(screen.getByRole("button", { name: "Request Access" }));
    expect(screen.getByText("Please enter your name.")).toBeInTheDocument();
    expect(screen.getByText("Please enter a valid email address.")).toBeInTheDocument();
    expect(screen.getByText("Please choose whether you are a creator or an expert.")).toBeInTheDocument();
    expect(screen.getByText("Please tell us what you need, in at most 2000 characters.")).toBeInTheDocument();
    expect(writes(calls)).toEqual([]);

    await fillIn({ name: "Nora", email: "nora@example" });
    expect(screen.queryByText("Please enter your name.")).not.toBeInTheDocument();
    expect(screen.getByText("Please enter a valid email address.")).toBeInTheDocument();
    await fillIn({ email: ".com", role: "Creator", need: "x".repeat(2001) });
    expect(screen.queryByText("Please enter a valid email address.")).not.toBeInTheDocument();
    expect(screen.queryByText("Please choose whether you are a creator or an expert.")).not.toBeInTheDocument();
    expect(screen.getByText("Please tell us what you need, in at most 2000 characters.")).toBeInTheDocument();
    await userEvent.click(screen.getByRole("button", { name: "Request Access" }));
    expect(writes(calls)).toEqual([]);
  });

  it("sends the request without signing in and thanks the visitor by name and address", async () => {
    const calls = fakeApi({ "POST /early-access": { status: 204 } });
    await openForm();
    await fillIn({ name: "  Nora Maker ", email: "Nora@Example.com", role: "Expert", need: "Someone to price my first brand deal." });
    expect(screen.getByText("37 / 2000 characters")).toBeInTheDocument();
    await userEvent.click(screen.getByRole("button", { name: "Request Access" }));
    expect(await screen.findByRole("status")).toHaveTextContent(
      "Thanks, Nora Maker! We'll e-mail you at nora@example.com when your invitation is ready.",
    );
    expect(writes(calls)).toEqual([
      {
        method: "POST",
        path: "/early-access",
        body: { name: "Nora Maker", email: "nora@example.com", role: "expert", need: "Someone to price my first brand deal." },
      },
    ]);
    expect(screen.queryByRole("form", { name: "Request early access" })).not.toBeInTheDocument();
  });

  it("shows the server's message when the request is refused, keeping what was typed", async () => {
    fakeApi({
      "POST /early-access": {
        status: 429,
        body: { code: "over_request_rate_limit", message: "Too many attempts. Please wait a few minutes and try again." },
      },
    });
    await openForm();
    await fillIn({ name: "Nora", email: "nora@example.com", role: "Creator", need: "Help" });
    await userEvent.click(screen.getByRole("button", { name: "Request Access" }));
    expect(await screen.findByRole("alert")).toHaveTextContent("Too many attempts. Please wait a few minutes and try again.");
    expect(field(/^Name/)).toHaveValue("Nora");
    expect(screen.getByRole("button", { name: "Request Access" })).toBeEnabled();
  });
});
