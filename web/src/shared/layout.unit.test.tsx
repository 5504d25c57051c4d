import axe from "axe-core";
import { describe, expect, it } from "vitest";
import { renderScreen, signedInAs } from "../../test/screen-harness.tsx";
import { CardPage, Page } from "./layout.tsx";

// Issue 27.21: every screen had a banner inside a banner (the header's AppBar is a <header> too),
// so a screen reader's landmarks listed two. axe's landmark rules on the layout, as visitor and signed in.

const landmarkRules = [
  "landmark-banner-is-top-level",
  "landmark-no-duplicate-banner",
  "landmark-unique",
  "landmark-one-main",
  "landmark-main-is-top-level",
  "landmark-no-duplicate-main",
  "landmark-contentinfo-is-top-level",
  "landmark-no-duplicate-contentinfo",
];

async function landmarkViolations(container: HTMLElement): Promise<string[]> {
  const result = await axe.run(container.ownerDocument, { runOnly: { type: "rule", values: landmarkRules }, resultTypes: ["violations"] });
  return result.violations.map((v) => v.id);
}

describe("the page layout's landmarks", () => {
  it.each([
    ["a visitor's page", <Page key="p">Listing</Page>, undefined],
    ["a signed-in creator's page", <Page key="p">Bookings</Page>, signedInAs("creator")],
    [
      "a card page under the slim header",
      <CardPage key="c" title="Confirm your email">
        Done
      </CardPage>,
      undefined,
    ],
  ])("%s has one banner, one main and one footer, none nested", async (_name, ui, auth) => {
    const { container, getAllByRole } = renderScreen(ui, { auth });
    expect(getAllByRole("banner")).toHaveLength(1);
    expect(await landmarkViolations(container)).toEqual([]);
  });
});
