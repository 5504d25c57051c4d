import { screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it, vi } from "vitest";
import { AppRoutes } from "../routes.tsx";
import type { Review } from "../shared/api-types.ts";
import { fakeApi, renderScreen, signedInAs } from "../../test/screen-harness.tsx";
import { anExpertProfile, linkTo } from "./expert-fixture.ts";

// Issue 34.5: a profile shows its newest reviews, and "Show more reviews" follows the profile's
// `Link: rel="next"` header and then each page's, under the ones shown, until the oldest; a page
// the API refuses says why and can be asked again.

afterEach(() => vi.unstubAllGlobals());

const review = (n: number): Review => ({
  id: `r${n}`,
  rating: 5,
  review: `Review number ${n}`,
  created_at: "2030-03-05T15:00:00.000Z",
  creator: { first_name: "Cleo", last_initial: "T." },
  reply: null,
});
const reviews = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => review(from + i));
const detail = (shown: Review[]) => anExpertProfile({ reviews: shown });
const shownTexts = () => screen.getAllByTestId("review").map((r) => r.querySelector("p")?.textContent);
const showMore = () => screen.queryByRole("button", { name: "Show more reviews" });
const openProfile = () => renderScreen(<AppRoutes />, { route: "/expert-profile/maya-lind-e1", path: "/*", auth: signedInAs("creator") });

describe("the profile's older reviews", () => {
  it("load a page at a time under the newest, following each Link header, until the oldest", async () => {
    const calls = fakeApi({
      "GET /experts/maya-lind-e1": { status: 200, body: detail(reviews(1, 2)), headers: linkTo("/experts/e1/reviews?before=p1&limit=2") },
      "GET /experts/e1/reviews?before=p1&limit=2": {
        status: 200,
        body: reviews(3, 4),
        headers: linkTo("/experts/e1/reviews?before=p2&limit=2"),
      },
      "GET /experts/e1/reviews?before=p2&limit=2": { status: 200, body: reviews(5, 5) },
    });
    openProfile();
    await screen.findByText("Review number 2");
    expect(calls.map((c) => c.path)).not.toContain("/experts/e1/reviews?before=p1&limit=2");
    await userEvent.click(showMore()!);
    await screen.findByText("Review number 4");
    await userEvent.click(showMore()!);
    await screen.findByText("Review number 5");
    expect(shownTexts()).toEqual(reviews(1, 5).map((r) => r.review));
    expect(showMore()).toBeNull();
  });

  it("offers nothing more when the profile has no Link header", async () => {
    fakeApi({ "GET /experts/maya-lind-e1": { status: 200, body: detail(reviews(1, 2)) } });
    openProfile();
    await screen.findByText("Review number 2");
    expect(showMore()).toBeNull();
  });

  it("say why a page was refused, keep the reviews shown, and can be asked again", async () => {
    const message = "That page of reviews does not exist. Please start again from the newest reviews.";
    let refuse = true;
    fakeApi({
      "GET /experts/maya-lind-e1": { status: 200, body: detail(reviews(1, 2)), headers: linkTo("/experts/e1/reviews?before=p1&limit=2") },
      "GET /experts/e1/reviews?before=p1&limit=2": () =>
        refuse ? { status: 400, body: { code: "reviews_cursor_invalid", message } } : { status: 200, body: reviews(3, 3) },
    });
    openProfile();
    await screen.findByText("Review number 2");
    await userEvent.click(showMore()!);
    await waitFor(() => expect(screen.getByRole("alert")).toHaveTextContent(message));
    expect(shownTexts()).toEqual(reviews(1, 2).map((r) => r.review));
    refuse = false;
    await userEvent.click(showMore()!);
    await screen.findByText("Review number 3");
    expect(screen.queryByRole("alert")).toBeNull();
  });
});
