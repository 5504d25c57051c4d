import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import { AppRoutes } from "../routes.tsx";
import { fakeApi, renderScreen, signedOut } from "../../test/screen-harness.tsx";
import { anExpertCard, linkTo } from "./expert-fixture.ts";

// Issue 34.5: the listing reaches every expert. The API sends a page and a `Link: rel="next"` header
// while more follow; "Show more experts" loads the next page under the cards shown, until the last
// page, and a page the API refuses says why without losing the cards already there.

const expert = (n: number) =>
  anExpertCard({
    id: `e${n}`,
    user_id: `e${n}`,
    slug: `expert-${n}`,
    name: `Expert ${n}`,
    role: "Advisor",
    startingprice: 50,
    starting_price_cents: 5_000,
  });
const experts = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => expert(from + i));
const cardNames = () => screen.getAllByTestId("expert-card").map((c) => within(c).getByRole("heading").textContent);
const gets = (calls: { method: string; path: string }[]) => calls.filter((c) => c.method === "GET").map((c) => c.path);

describe("the listing's pages", () => {
  it("shows every expert by following the next page until the last, in the API's order, then offers no more", async () => {
    const calls = fakeApi({
      "GET /experts/search?search=exp": {
        status: 200,
        body: experts(1, 3),
        headers: linkTo("/experts/search?search=exp&before=c1&limit=3"),
      },
      "GET /experts/search?search=exp&before=c1&limit=3": {
        status: 200,
        body: experts(4, 6),
        headers: linkTo("/experts/search?search=exp&before=c2&limit=3"),
      },
      "GET /experts/search?search=exp&before=c2&limit=3": { status: 200, body: experts(7, 8) },
    });
    renderScreen(<AppRoutes />, { route: "/search?search=exp", path: "/*", auth: signedOut });
    await screen.findByText("Expert 3");
    expect(cardNames()).toEqual(["Expert 1", "Expert 2", "Expert 3"]);
    await userEvent.click(screen.getByRole("button", { name: "Show more experts" }));
    await screen.findByText("Expert 6");
    await userEvent.click(screen.getByRole("button", { name: "Show more experts" }));
    await screen.findByText("Expert 8");
    expect(cardNames()).toEqual(experts(1, 8).map((e) => e.name));
    expect(screen.queryByRole("button", { name: "Show more experts" })).not.toBeInTheDocument();
    expect(gets(calls)).toEqual([
      "/experts/search?search=exp",
      "/experts/search?search=exp&before=c1&limit=3",
      "/experts/search?search=exp&before=c2&limit=3",
    ]);
  });

  it("offers no more when the first page is the whole listing", async () => {
    fakeApi({ "GET /experts": { status: 200, body: experts(1, 2) } });
    renderScreen(<AppRoutes />, { route: "/search", path: "/*", auth: signedOut });
    await screen.findByText("Expert 2");
    expect(screen.queryByRole("button", { name: "Show more experts" })).not.toBeInTheDocument();
  });

  it("keeps the cards shown and says why when the next page is refused, and the button can try again", async () => {
    const message = "That page of experts is no longer there: the listing has changed. Please start again from the top.";
    fakeApi({
      "GET /experts": { status: 200, body: experts(1, 2), headers: linkTo("/experts?before=gone&limit=2") },
      "GET /experts?before=gone&limit=2": { status: 400, body: { code: "listing_cursor_invalid", message } },
    });
    renderScreen(<AppRoutes />, { route: "/search", path: "/*", auth: signedOut });
    await screen.findByText("Expert 2");
    await userEvent.click(screen.getByRole("button", { name: "Show more experts" }));
    await waitFor(() => expect(screen.getByRole("alert")).toHaveTextContent(message));
    expect(cardNames()).toEqual(["Expert 1", "Expert 2"]);
    expect(screen.getByRole("button", { name: "Show more experts" })).toBeEnabled();
  });
});
