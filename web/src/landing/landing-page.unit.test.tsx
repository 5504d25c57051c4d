import { screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { ExpertListItem } from "../shared/api-types.ts";
import { fakeApi, renderScreen } from "../../test/screen-harness.tsx";
import { LandingPage } from "./landing-page.tsx";
import { CREATOR_CHALLENGES, FAQ, SAMPLE_EXPERTS } from "./landing-content.ts";

afterEach(() => vi.unstubAllGlobals());

const listed = (name: string, verified = true, extra: Partial<ExpertListItem> = {}): ExpertListItem => {
  const slug = name.toLowerCase().replace(/ /g, "-");
  return {
    id: slug,
    user_id: slug,
    slug,
    name,
    role: `${name}'s title`,
    startingprice: 120,
    starting_price_cents: 12_000,
    starting_price_currency: "USD",
    rating: 4.5,
    review_count: 2,
    image: null,
    verified,
    next_available: null,
    median_answer_minutes: null,
    ...extra,
  };
};

describe("landing page", () => {
  it("has 33 challenges and 7 questions with one answer open at a time", async () => {
    fakeApi({ "GET /experts": { status: 200, body: [] } });
    expect(CREATOR_CHALLENGES).toHaveLength(33);
    expect(FAQ).toHaveLength(7);
    renderScreen(<LandingPage />);
    const questions = FAQ.map((f) => screen.getByRole("button", { name: new RegExp(f.q.replace(/[?]/g, "\\?")) }));
    expect(questions.map((q) => q.getAttribute("aria-expanded"))).toEqual(["true", "false", "false", "false", "false", "false", "false"]);
    await userEvent.click(questions[3]!);
    expect(questions.map((q) => q.getAttribute("aria-expanded"))).toEqual(["false", "false", "false", "true", "false", "false", "false"]);
    await userEvent.click(questions[3]!);
    expect(questions.every((q) => q.getAttribute("aria-expanded") === "false")).toBe(true);
  });

  // Issue 27.1: the marketplace is open; its calls to action lead into it, in the same tab.
  it("leads its three calls to action into the marketplace in the same tab, and keeps early access one link away", async () => {
    fakeApi({ "GET /experts": { status: 200, body: [] } });
    renderScreen(<LandingPage />);
    const targets = ["Explore our network", "Find your perfect match", "Get expert support quickly"].map((name) =>
      screen.getByRole("link", { name }),
    );
    for (const link of targets) expect(link).not.toHaveAttribute("target");
    expect(targets.map((l) => l.getAttribute("href"))).toEqual(["/experts", "/experts", "/signup?role=creator"]);
    expect(screen.getByRole("link", { name: /invitation to try it first/ })).toHaveAttribute("href", "/early-access");
  });

  // Issue 27.2: the hero shows experts who exist, each a link to their profile.
  it("shows three real verified experts in the hero, each linking to their profile", async () => {
    const inEuros = { starting_price_cents: 8_950, starting_price_currency: "EUR" } as const;
    const body = [
      listed("Sofia Rossi"),
      listed("Unvetted Person", false),
      listed("Ava Chen", true, inEuros),
      listed("Marcus Reed"),
      listed("Fourth One"),
    ];
    fakeApi({ "GET /experts": { status: 200, body } });
    renderScreen(<LandingPage />);
    const hero = await screen.findByRole("list", { name: "Featured experts", busy: false });
    const cards = within(hero).getAllByTestId("featured-expert");
    expect(cards).toHaveLength(3);
    expect(
      within(hero)
        .getAllByRole("link")
        .map((l) => [l.textContent, l.getAttribute("href")]),
    ).toEqual([
      ["Sofia Rossi", "/expert-profile/sofia-rossi"],
      ["Ava Chen", "/expert-profile/ava-chen"],
      ["Marcus Reed", "/expert-profile/marcus-reed"],
    ]);
    for (const sample of SAMPLE_EXPERTS) expect(within(hero).queryByText(sample.name)).toBeNull();
    // Each price in its own currency, as the listing gives it.
    expect(within(cards[0]!).getByText("From $120")).toBeInTheDocument();
    expect(within(cards[1]!).getByText("From €89.50")).toBeInTheDocument();
  });

  it("falls back to the sample cards while fewer than three verified experts exist", async () => {
    fakeApi({ "GET /experts": { status: 200, body: [listed("Sofia Rossi"), listed("Ava Chen")] } });
    renderScreen(<LandingPage />);
    const hero = await screen.findByRole("list", { name: "Featured experts", busy: false });
    expect(
      within(hero)
        .getAllByTestId("featured-expert")
        .map((c) => within(c).getByRole("heading").textContent),
    ).toEqual(SAMPLE_EXPERTS.map((e) => e.name));
    expect(within(hero).queryAllByRole("link")).toHaveLength(0);
  });
});
