import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { DEMO_CREATOR, DEMO_PASSWORD, seedDemoData } from "../../api/src/main/seed.ts";
import { projectorCaughtUp, waitFor } from "../../api/test/processes.ts";
import { appendSynthetic } from "../../projections/test/workload.ts";
import { artifacts, consoleWalk } from "./console-walk.ts";

// Blue-green rebuilds in the console (issue 18), in a real Chromium against the real API: the
// Rebuild button builds a new generation of the bookings read model while the live one keeps
// serving; the read model's page shows both generations' progress, then the switch.

const walk = consoleWalk(async ({ api }) => {
  await seedDemoData(api.app, api.ctx);
  // A log long enough for the rebuild's progress to be seen moving.
  await Promise.all([0, 1, 2, 3].map((w) => appendSynthetic(api.ctx.store, 4_000, 1 + w * 100_000)));
  await waitFor("the projector to catch up", () => projectorCaughtUp(api.ctx.db, api.ctx.store), 120_000);
}, 300_000);

const eventually = <T>(value: () => T | Promise<T>) => expect.poll(value, { timeout: 30_000, interval: 50 });

describe("blue-green rebuild in the console", () => {
  it("builds a new generation while the live one serves, shows both generations' progress, then switches", async () => {
    const { api, page, consoleUrl, must, signIn } = walk;
    await page.goto(consoleUrl("/projections/bookings/show"));
    const generations = page.getByTestId("generation");
    const shown = () =>
      generations.evaluateAll((nodes) => nodes.map((n) => `g${n.getAttribute("data-generation")} ${n.getAttribute("data-state")}`));
    await eventually(shown).toEqual(["g1 live"]);
    const creator = await signIn(DEMO_CREATOR.email, DEMO_PASSWORD);
    const before = (await must<unknown[]>("GET", "/bookings/creator/me", { token: creator })).length;

    // A reader holding the live table from before the switch: the switch waits for it (retrying), so
    // the walk can look at both generations for as long as it holds it.
    const reader = await api.ctx.db.connect();
    const building = page.locator("[data-testid=generation][data-state=building]");
    const progress: number[] = [];
    try {
      await reader.query("BEGIN");
      await reader.query("SELECT count(*) FROM bookings");
      const head = await api.ctx.store.countEvents();
      // Every value the page draws for the building generation, from its first render on: polling
      // from here would miss those drawn before the first poll (a fast fill shows two at most).
      await page.evaluate(() => {
        const seen: number[] = [];
        (window as unknown as { buildingProgress: number[] }).buildingProgress = seen;
        const record = () => {
          const node = document.querySelector("[data-testid=generation][data-state=building]");
          const applied = node?.getAttribute("data-events-applied");
          if (applied != null && seen.at(-1) !== Number(applied)) seen.push(Number(applied));
        };
        new MutationObserver(record).observe(document.body, {
          subtree: true,
          childList: true,
          attributes: true,
          attributeFilter: ["data-events-applied", "data-state"],
        });
      });
      await page.getByRole("button", { name: "Rebuild bookings" }).click();
      await page.getByRole("dialog", { name: "Rebuild bookings?" }).getByRole("button", { name: "Rebuild", exact: true }).click();
      await eventually(shown).toEqual(["g1 live", "g2 building"]);
      // The new generation's progress moves on screen up to the head of the log as it was at the
      // click (the log grows meanwhile: the completion sweeper completes the seeded past sessions).
      await eventually(async () => Number(await building.getAttribute("data-events-applied")) >= head).toBe(true);
      progress.push(...(await page.evaluate(() => (window as unknown as { buildingProgress: number[] }).buildingProgress)));
      await expect.poll(() => page.getByTestId("rebuild-running").isVisible()).toBe(true);
      // Meanwhile the live generation is projected: an expert's new bookings reach it, and the page shows it move.
      const live = () => generations.first().getAttribute("data-events-applied").then(Number);
      const liveBefore = await live();
      await appendSynthetic(api.ctx.store, 19, 900_000);
      await eventually(async () =>
        Number((await api.ctx.db.query("SELECT count(*) FROM bookings WHERE expert_id LIKE 'sx-900000-%'")).rows[0].count),
      ).toBe(4);
      await eventually(live).toBeGreaterThan(liveBefore);
      expect(await generations.first().textContent()).toContain("g1 live · serving readers");
      await page.screenshot({ path: join(artifacts, "projections-two-generations.png"), fullPage: true, animations: "disabled" });
    } finally {
      await reader.query("COMMIT");
      reader.release();
    }
    console.log(`[blue-green e2e] the building generation's events applied, as the page showed them: ${[...new Set(progress)].join(", ")}`);
    expect(new Set(progress).size).toBeGreaterThan(1);

    // Switched: g2 serves, g1 is kept (retired) until the next rebuild.
    await eventually(shown).toEqual(["g2 live", "g1 retired"]);
    await page.getByTestId("rebuild-done").waitFor({ timeout: 60_000 });
    expect(await generations.first().textContent()).toContain("bookings");
    expect(await generations.nth(1).textContent()).toContain("bookings__g1");
    await page.screenshot({ path: join(artifacts, "projections-switched.png"), fullPage: true, animations: "disabled" });
    // The new generation serves every booking the old one did, and those made during the rebuild.
    expect((await must<unknown[]>("GET", "/bookings/creator/me", { token: creator })).length).toBe(before);
    expect(Number((await api.ctx.db.query("SELECT count(*) FROM bookings WHERE expert_id LIKE 'sx-900000-%'")).rows[0].count)).toBe(4);

    // The list shows the generations of every read model.
    await page.goto(consoleUrl("/projections"));
    const row = page.locator("table tbody tr.RaDataTable-row", { hasText: /^bookings/ });
    await eventually(() => row.getByTestId("generation").count()).toBe(2);
    await eventually(() => page.getByTestId("generation").count()).toBeGreaterThanOrEqual(9);
  }, 180_000);
});
