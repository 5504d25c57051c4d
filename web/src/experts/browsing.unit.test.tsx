import { screen } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { AppRoutes } from "../routes.tsx";
import { fakeApi, renderScreen, signedOut } from "../../test/screen-harness.tsx";
import { anExpertCard, anExpertProfile } from "./expert-fixture.ts";

// Issue 13.15: a visitor may browse the experts and their profiles; booking stays behind sign-in.

afterEach(() => vi.unstubAllGlobals());

const maya = anExpertCard();
const detail = anExpertProfile({ tags: ["Brand deals"] });

describe("browsing without signing in", () => {
  it("a visitor sees the experts listing", async () => {
    fakeApi({ "GET /experts": { status: 200, body: [maya] } });
    renderScreen(<AppRoutes />, { route: "/experts", path: "/*", auth: signedOut });
    expect(await screen.findByText("Maya Lind")).toBeInTheDocument();
    expect(screen.getByText("$150 per session")).toBeInTheDocument();
    expect(screen.getByTestId("location")).toHaveTextContent("/experts");
  });

  it("a price in another currency reads in that currency", async () => {
    fakeApi({
      "GET /experts": { status: 200, body: [{ ...maya, startingprice: 90, starting_price_cents: 8_950, starting_price_currency: "EUR" }] },
    });
    renderScreen(<AppRoutes />, { route: "/experts", path: "/*", auth: signedOut });
    expect(await screen.findByText("€89.50 per session")).toBeInTheDocument();
  });

  it("a visitor sees an expert's profile", async () => {
    fakeApi({ "GET /experts/maya-lind-e1": { status: 200, body: detail } });
    renderScreen(<AppRoutes />, { route: "/expert-profile/maya-lind-e1", path: "/*", auth: signedOut });
    expect(await screen.findByRole("heading", { name: /Maya Lind/ })).toBeInTheDocument();
    expect(screen.getByTestId("location")).toHaveTextContent("/expert-profile/maya-lind-e1");
  });

  it("booking still asks a visitor to log in", async () => {
    fakeApi({});
    renderScreen(<AppRoutes />, { route: "/book-session/s-1", path: "/*", auth: signedOut });
    expect(await screen.findByText("Please log in as a creator to book a session.")).toBeInTheDocument();
  });
});
