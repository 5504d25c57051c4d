import { screen } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { AppRoutes } from "../routes.tsx";
import type { ExpertDetail, ExpertListItem } from "../shared/api-types.ts";
import { fakeApi, renderScreen, signedOut } from "../../test/screen-harness.tsx";

// Issue 13.15: a visitor may browse the experts and their profiles; booking stays behind sign-in.

afterEach(() => vi.unstubAllGlobals());

const maya: ExpertListItem = {
  id: "e1",
  user_id: "e1",
  slug: "maya-lind-e1",
  name: "Maya Lind",
  role: "Brand partnerships advisor",
  startingprice: 150,
  starting_price_cents: 15_000,
  starting_price_currency: "USD",
  rating: null,
  review_count: 0,
  image: null,
  verified: true,
  next_available: null,
  median_answer_minutes: null,
};
const detail: ExpertDetail = {
  id: "e1",
  user_id: "e1",
  slug: "maya-lind-e1",
  first_name: "Maya",
  last_name: "Lind",
  title: "Brand partnerships advisor",
  bio: "Deals.",
  tags: ["Brand deals"],
  profile_image: null,
  published: true,
  verified: true,
  sessions: [],
  reviews: [],
  prev_clients: [],
};

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
