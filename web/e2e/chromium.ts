import { mkdir } from "node:fs/promises";
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";
import { chromium, type Browser, type Page } from "playwright-core";

const require = createRequire(import.meta.url);
export const ARTIFACTS = fileURLToPath(new URL("./artifacts/", import.meta.url));

/** The system Chromium (never a download). */
export async function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
    args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"],
  });
}

export async function screenshot(page: Page, name: string): Promise<void> {
  await mkdir(ARTIFACTS, { recursive: true });
  await page.screenshot({ path: `${ARTIFACTS}${name}.png`, fullPage: true });
}

export type AxeViolation = { id: string; impact: string | null; help: string; nodes: { target: string[]; html: string }[] };

/** axe-core's serious and critical violations on the page as it is now. */
export async function seriousViolations(page: Page): Promise<AxeViolation[]> {
  const hasAxe = await page.evaluate(() => typeof (window as unknown as { axe?: unknown }).axe !== "undefined");
  if (!hasAxe) await page.addScriptTag({ path: require.resolve("axe-core/axe.min.js") });
  const violations = await page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run: (ctx: Document, options: object) => Promise<{ violations: AxeViolation[] }> } }).axe;
    const result = await axe.run(document, { resultTypes: ["violations"] });
    return result.violations.map((v) => ({ id: v.id, impact: v.impact, help: v.help, nodes: v.nodes.slice(0, 5).map((n) => ({ target: n.target, html: n.html.slice(0, 200) })) }));
  });
  return violations.filter((v) => v.impact === "serious" || v.impact === "critical");
}
