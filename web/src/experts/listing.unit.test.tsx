import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import { AppRoutes } from "../routes.tsx";
import type { ExpertListItem } from "../shared/api-types.ts";
import { fakeApi, renderScreen, signedOut } from "../../test/screen-harness.tsx";
import { answersWithinText, ExpertCard, nextAvailableText } from "./expert-card.tsx";
import { anExpertCard } from "./expert-fixture.ts";
import { choicesOfPage, listingRequestOf, NO_CHOICES, pageParamsOf } from "./listing-choices.ts";

// Issue 30.5: the listing's sort and filters. Each control changes the call the page makes (only the
// choices that differ from the defaults, price bounds in cents), the address keeps them, a refused query
// shows the API's message, and a card says when the expert is next free and how fast they answer.

const expert = (name: string, change: Partial<ExpertListItem> = {}): ExpertListItem => {
  const slug = name.toLowerCase().replace(/ /g, "-");
  return anExpertCard({ id: slug, user_id: slug, slug, name, role: "Advisor", ...change });
};
const maya = expert("Maya Lind");
const omar = expert("Omar Reyes", { startingprice: 40, starting_price_cents: 4_000 });

const listed = (body: ExpertListItem[]) => ({ status: 200, body });
const gets = (calls: { method: string; path: string }[]) => calls.filter((c) => c.method === "GET").map((c) => c.path);
const cardNames = () => screen.getAllByTestId("expert-card").map((c) => within(c).getByRole("heading").textContent);

function openListing(replies: Parameters<typeof fakeApi>[0], route = "/search") {
  const calls = fakeApi(replies);
  renderScreen(<AppRoutes />, { route, path: "/*", auth: signedOut });
  return calls;
}

describe("the listing's call", () => {
  it("is exactly /experts with nothing chosen, and /experts/search?search=<term> for a search alone, once typing stops", async () => {
    const calls = openListing({
      "GET /experts": listed([maya, omar]),
      "GET /experts/search?search=Lind%20M": listed([maya]),
    });
    await screen.findByText("Omar Reyes");
    expect(gets(calls)).toEqual(["/experts"]);
    await userEvent.type(screen.getByRole("searchbox", { name: "Search for experts by name, role, or expertise" }), "Lind M");
    await waitFor(() => expect(screen.queryByText("Omar Reyes")).not.toBeInTheDocument());
    expect(gets(calls)).toEqual(["/experts", "/experts/search?search=Lind%20M"]);
  });

  it("carries the sort, the length, the price range in cents and this week, and the page's address keeps them", async () => {
    const asked = "/experts?sort=price&min_price_cents=2500&max_price_cents=10000&length_minutes=60&available=this_week";
    const calls = openListing({ "GET /experts": listed([maya, omar]), [`GET ${asked}`]: listed([omar]) });
    await screen.findByText("Maya Lind");
    await userEvent.selectOptions(screen.getByLabelText("Sort by"), "Lowest price");
    await userEvent.selectOptions(screen.getByLabelText("Session length"), "60 min");
    await userEvent.type(screen.getByLabelText("Min price"), "25");
    await userEvent.type(screen.getByLabelText("Max price"), "100");
    await userEvent.click(screen.getByLabelText("Available this week"));
    await waitFor(() => expect(gets(calls).at(-1)).toBe(asked));
    await waitFor(() => expect(cardNames()).toEqual(["Omar Reyes"]));
    // Typed prices are asked once typing stops: never "1" or "10" on the way to 100.
    expect(gets(calls).filter((p) => p.includes("max_price_cents=100&") || p.includes("max_price_cents=1000&"))).toEqual([]);
    expect(screen.getByLabelText("Sort by")).toHaveValue("price");
  });

  it("opens a shared link's choices: the address's sort, length, prices and currency make the first call", async () => {
    const calls = openListing(
      { "GET /experts/search?search=deals&sort=soonest&max_price_cents=9000&currency=EUR&length_minutes=90": listed([maya]) },
      "/search?search=deals&sort=soonest&length=90&max_price=90&currency=EUR",
    );
    await screen.findByText("Maya Lind");
    expect(gets(calls)).toEqual(["/experts/search?search=deals&sort=soonest&max_price_cents=9000&currency=EUR&length_minutes=90"]);
    expect(screen.getByRole("searchbox")).toHaveValue("deals");
    expect(screen.getByLabelText("Max price")).toHaveValue(90);
    expect(screen.getByLabelText("Currency")).toHaveValue("EUR");
    expect(screen.getByLabelText("Session length")).toHaveValue("90");
  });

  it("reads and writes the address with only what differs from the defaults", () => {
    expect(listingRequestOf(NO_CHOICES)).toBe("/experts");
    expect(listingRequestOf({ ...NO_CHOICES, search: "  maya " })).toBe("/experts/search?search=maya");
    expect(listingRequestOf({ ...NO_CHOICES, minPrice: "12.5", currency: "GBP" })).toBe("/experts?min_price_cents=1250&currency=GBP");
    const choices = { ...NO_CHOICES, sort: "rating" as const, lengthMinutes: 30 as const, maxPrice: "80", thisWeek: true };
    expect(pageParamsOf(choices).toString()).toBe("sort=rating&length=30&max_price=80&available=this_week");
    expect(choicesOfPage(pageParamsOf(choices))).toEqual(choices);
    expect(choicesOfPage(new URLSearchParams("sort=cheapest&length=45&currency=XYZ&available=someday"))).toEqual(NO_CHOICES);
  });
});

describe("the listing's answers", () => {
  it("shows the API's message when it refuses the query, without breaking the page", async () => {
    const refused = { code: "listing_price_range_invalid", message: "ignored: the catalogue's text is shown" };
    openListing({
      "GET /experts": listed([maya]),
      // Min price typed first: its call may go before the max price is typed.
      "GET /experts?min_price_cents=20000": listed([]),
      "GET /experts?min_price_cents=20000&max_price_cents=10000": { status: 400, body: refused },
    });
    await screen.findByText("Maya Lind");
    await userEvent.type(screen.getByLabelText("Min price"), "200");
    await userEvent.type(screen.getByLabelText("Max price"), "100");
    await waitFor(() =>
      expect(screen.getByRole("alert")).toHaveTextContent(
        "Please give a price range of whole amounts, with the lowest price no higher than the highest.",
      ),
    );
    expect(screen.getByRole("heading", { name: "Find your expert" })).toBeInTheDocument();
  });

  it("says no expert matches the filters and clears them, keeping the search", async () => {
    const calls = openListing(
      {
        "GET /experts/search?search=maya": listed([maya]),
        "GET /experts/search?search=maya&available=this_week": listed([]),
      },
      "/search?search=maya",
    );
    await screen.findByText("Maya Lind");
    await userEvent.click(screen.getByLabelText("Available this week"));
    expect(await screen.findByText("No experts match these filters.")).toBeInTheDocument();
    await userEvent.click(screen.getByRole("button", { name: "Clear filters" }));
    await screen.findByText("Maya Lind");
    expect(screen.getByLabelText("Available this week")).not.toBeChecked();
    expect(gets(calls)).toEqual(["/experts/search?search=maya", "/experts/search?search=maya&available=this_week"]);
  }, 60_000);

  it("keeps the spec's words for a search that finds nobody", async () => {
    openListing({ "GET /experts/search?search=nobody": listed([]) }, "/search?search=nobody");
    expect(await screen.findByText("No experts match your search.")).toBeInTheDocument();
    expect(screen.queryByRole("button", { name: "Clear filters" })).not.toBeInTheDocument();
  });
});

describe("the card", () => {
  it("says when the expert is next free, in the viewer's zone and words, and how fast they usually answer", () => {
    expect(nextAvailableText("2026-12-02T19:00:00Z", "America/New_York", "en-US")).toBe("Next available Wed, Dec 2, 2:00 PM");
    expect(nextAvailableText("2026-12-02T19:00:00Z", "Europe/London", "en-GB")).toBe("Next available Wed 2 Dec, 19:00");
    expect([25, 60, 61, 180, 1439, 2879, 2880, 4000].map(answersWithinText)).toEqual([
      "Usually answers within an hour",
      "Usually answers within an hour",
      "Usually answers within 2 hours",
      "Usually answers within 3 hours",
      "Usually answers within 24 hours",
      "Usually answers within 2 days",
      "Usually answers within 2 days",
      "Usually answers within 3 days",
    ]);
  });

  it("shows both lines when the listing gives them, and neither when it does not", () => {
    fakeApi({});
    const next = "2026-12-02T19:00:00Z";
    renderScreen(
      <>
        <ExpertCard expert={{ ...maya, next_available: next, median_answer_minutes: 150 }} />
        <ExpertCard expert={omar} />
      </>,
    );
    const [busy, quiet] = screen.getAllByTestId("expert-card");
    expect(within(busy!).getByTestId("next-available")).toHaveTextContent(nextAvailableText(next));
    expect(within(busy!).getByTestId("next-available").textContent).toMatch(/^Next available \w{3},? /);
    expect(within(busy!).getByText("Usually answers within 3 hours")).toBeInTheDocument();
    expect(within(busy!).getByText("$150 per session")).toBeInTheDocument();
    expect(within(quiet!).queryByTestId("next-available")).not.toBeInTheDocument();
    expect(within(quiet!).queryByText(/Usually answers/)).not.toBeInTheDocument();
  });
});
