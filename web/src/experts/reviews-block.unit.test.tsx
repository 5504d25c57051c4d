import { screen, within } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { AppRoutes } from "../routes.tsx";
import type { Review } from "../shared/api-types.ts";
import { fakeApi, renderScreen, signedInAs } from "../../test/screen-harness.tsx";
import { anExpertCard, anExpertProfile } from "./expert-fixture.ts";

// Issue 15.4: the profile's reviews block (stars 1 to 5, text, long date in the viewer's locale (issue 27.14), creator first name
// plus last initial, the expert's public reply) and the listing card's average and count.

afterEach(() => vi.unstubAllGlobals());

const cleo: Review = {
  id: "r1",
  rating: 4,
  review: "Clear pricing tiers.",
  created_at: "2030-03-05T15:00:00.000Z",
  creator: { first_name: "Cleo", last_initial: "T." },
  reply: { text: "Thank you, Cleo!", created_at: "2030-03-06T09:00:00.000Z" },
};
const dan: Review = {
  id: "r2",
  rating: 5,
  review: "",
  created_at: "2030-02-01T15:00:00.000Z",
  creator: { first_name: "Dan", last_initial: "" },
  reply: null,
};
const detail = (reviews: Review[]) => anExpertProfile({ reviews });
const maya = (rating: number | null, review_count: number) => anExpertCard({ role: "Advisor", rating, review_count });

describe("the profile's reviews", () => {
  it(
    "shows each review's stars, text, long date (the viewer's locale: en-US here) and the creator's first name " +
      "and last initial, with the expert's reply",
    async () => {
      fakeApi({ "GET /experts/maya-lind-e1": { status: 200, body: detail([cleo, dan]) } });
      renderScreen(<AppRoutes />, { route: "/expert-profile/maya-lind-e1", path: "/*", auth: signedInAs("creator") });
      expect(await screen.findByRole("heading", { name: "Reviews" })).toBeInTheDocument();
      const [first, second] = screen.getAllByTestId("review");
      expect(within(first!).getByRole("img", { name: "4 out of 5 stars" })).toBeInTheDocument();
      expect(within(first!).getByText("Clear pricing tiers.")).toBeInTheDocument();
      expect(within(first!).getByText("Cleo T. · Tuesday, March 5, 2030")).toBeInTheDocument();
      expect(within(first!).getByTestId("review-reply")).toHaveTextContent("Reply from MayaThank you, Cleo!");
      expect(within(second!).getByRole("img", { name: "5 out of 5 stars" })).toBeInTheDocument();
      expect(within(second!).getByText("Dan · Friday, February 1, 2030")).toBeInTheDocument();
      expect(within(second!).queryByTestId("review-reply")).toBeNull();
    },
  );

  it("shows no reviews block while there are none", async () => {
    fakeApi({ "GET /experts/maya-lind-e1": { status: 200, body: detail([]) } });
    renderScreen(<AppRoutes />, { route: "/expert-profile/maya-lind-e1", path: "/*", auth: signedInAs("creator") });
    expect(await screen.findByRole("heading", { name: /Maya Lind/ })).toBeInTheDocument();
    expect(screen.queryByRole("heading", { name: "Reviews" })).toBeNull();
  });
});

describe("the listing card's rating", () => {
  it("shows the average to one decimal and the count, or New before any review", async () => {
    fakeApi({ "GET /experts": { status: 200, body: [maya(4.5, 2), { ...maya(null, 0), id: "e2", slug: "sam-e2", name: "Sam Reyes" }] } });
    renderScreen(<AppRoutes />, { route: "/experts", path: "/*", auth: signedInAs("creator") });
    const [rated, unrated] = await screen.findAllByTestId("expert-rating");
    expect(rated).toHaveTextContent("4.5 (2)");
    expect(rated).toHaveAccessibleName("Rated 4.5 out of 5 from 2 reviews");
    expect(unrated).toHaveTextContent("New");
    expect(unrated).toHaveAccessibleName("Not rated yet");
  });
});
