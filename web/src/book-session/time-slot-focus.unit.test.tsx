import { screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { DateTime } from "luxon";
import { describe, expect, it } from "vitest";
import type { Session } from "../shared/api-types.ts";
import { browserZone, clockTime } from "../shared/local-time.ts";
import { fakeApi, renderScreen, signedInAs } from "../../test/screen-harness.tsx";
import { TimeStep } from "./time-step.tsx";

// Issue 27.21: a keyboard user tabbing through the wizard's times could not see which one had
// focus. The times carry a :focus-visible outline of their own (MUI's focus ripple is faint on an outlined button).

const session = {
  id: "s-1",
  title: "Deck review",
  price: 150,
  length_minutes: 60,
  expert: { id: "e", name: "Maya Lind", first_name: "Maya" },
} as Session;
const zone = browserZone();
const tomorrow = DateTime.now().setZone(zone).plus({ days: 1 }).startOf("day");
const times = [tomorrow.set({ hour: 10 }).toUTC().toISO()!];

/** The declarations of the page's style rules for `element`'s classes under :focus-visible. */
function focusVisibleStyles(element: Element): string[] {
  const rules = [...document.styleSheets]
    .flatMap((sheet) => [...sheet.cssRules])
    .filter((r): r is CSSStyleRule => r instanceof CSSStyleRule);
  return rules
    .filter(
      (r) =>
        r.selectorText.includes(":focus-visible") && [...element.classList].some((c) => r.selectorText.includes(`.${c}:focus-visible`)),
    )
    .map((r) => r.style.cssText);
}

describe("the wizard's time slots", () => {
  it("show a visible outline when focused from the keyboard", async () => {
    fakeApi({ "GET /sessions/s-1/availability": { status: 200, body: { timezone: "UTC", times } } });
    renderScreen(<TimeStep session={session} preview={false} onBooked={() => undefined} />, { auth: signedInAs("creator") });
    await userEvent.click(
      await screen.findByRole("button", { name: new RegExp(tomorrow.toFormat("cccc, LLLL d, yyyy")) }, { timeout: 10_000 }),
    );
    const slot = screen.getByRole("button", { name: clockTime(times[0]!, zone) });
    expect(focusVisibleStyles(slot).join(" ")).toMatch(/outline: 3px solid/);
  });
});
