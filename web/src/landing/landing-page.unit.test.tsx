import { screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import { renderScreen } from "../shared/screen-harness.tsx";
import { LandingPage } from "./landing-page.tsx";
import { CREATOR_CHALLENGES, FAQ } from "./landing-content.ts";

describe("landing page", () => {
  it("has 33 challenges, 7 questions with one answer open at a time, and three calls to action in new tabs", async () => {
    expect(CREATOR_CHALLENGES).toHaveLength(33);
    expect(FAQ).toHaveLength(7);
    renderScreen(<LandingPage />);
    const questions = FAQ.map((f) => screen.getByRole("button", { name: new RegExp(f.q.replace(/[?]/g, "\\?")) }));
    expect(questions.map((q) => q.getAttribute("aria-expanded"))).toEqual(["true", "false", "false", "false", "false", "false", "false"]);
    await userEvent.click(questions[3]!);
    expect(questions.map((q) => q.getAttribute("aria-expanded"))).toEqual(["false", "false", "false", "true", "false", "false", "false"]);
    await userEvent.click(questions[3]!);
    expect(questions.every((q) => q.getAttribute("aria-expanded") === "false")).toBe(true);
    for (const name of ["Explore our network", "Find your perfect match", "Get expert support quickly"]) {
      const link = screen.getByRole("link", { name: new RegExp(name) });
      expect(link).toHaveAttribute("target", "_blank");
      expect(link.getAttribute("href")).toMatch(/\/early-access$/);
    }
  });
});
