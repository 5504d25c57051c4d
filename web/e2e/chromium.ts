import { randomUUID } from "node:crypto";
import { mkdir, readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";
import { chromium, type Browser, type BrowserContext, type Page } from "playwright-core";

const require = createRequire(import.meta.url);
export const ARTIFACTS = fileURLToPath(new URL("./artifacts/", import.meta.url));

/** A Content-Security-Policy violation a page reported (its `securitypolicyviolation` event). */
export type CspViolation = { page: string; directive: string; blocked: string; sample: string; at: string };

const watched = new WeakMap<Browser, CspViolation[][]>();

/**
 * The system Chromium (never a download). Every page of every context it opens (newContext and
 * newPage) reports its CSP violations; read them with `takeCspViolations(browser)`.
 */
export async function launchChromium(): Promise<Browser> {
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
    args: [
      "--headless",
      "--no-sandbox",
      "--disable-gpu",
      "--disable-quic",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
    ],
  });
  const lists: CspViolation[][] = [];
  watched.set(browser, lists);
  // Browser.newPage opens its own context through newContext, so this covers both.
  const newContext = browser.newContext.bind(browser);
  browser.newContext = async (options) => {
    const context = await newContext(options);
    const found: CspViolation[] = [];
    lists.push(found);
    await collectCspViolations(context, found);
    return context;
  };
  return browser;
}

/** The CSP violations reported since the last call, across the browser's pages; the list starts afresh. */
export function takeCspViolations(browser: Browser): CspViolation[] {
  const lists = watched.get(browser);
  if (!lists) throw new Error("takeCspViolations: this browser was not opened by launchChromium");
  return lists.flatMap((list) => list.splice(0));
}

/**
 * For a page or context not opened by launchChromium: collect its CSP violations (call before
 * navigating). Returns a function listing them so far.
 */
export async function watchCsp(target: Page | BrowserContext): Promise<() => CspViolation[]> {
  const found: CspViolation[] = [];
  await collectCspViolations(target, found);
  return () => [...found];
}

async function collectCspViolations(target: Page | BrowserContext, into: CspViolation[]): Promise<void> {
  // A binding and an init script both go through the devtools protocol: the page's CSP does not apply to them.
  const binding = `__cspViolation_${randomUUID().replaceAll("-", "")}`;
  await target.exposeBinding(binding, (_source, violation: CspViolation) => void into.push(violation));
  await target.addInitScript((name: string) => {
    document.addEventListener(
      "securitypolicyviolation",
      (e) => {
        const report = (window as unknown as Record<string, (v: CspViolation) => void>)[name];
        report?.({
          page: location.href,
          directive: e.effectiveDirective,
          blocked: e.blockedURI,
          sample: e.sample,
          at: `${e.sourceFile}:${e.lineNumber}`,
        });
      },
      true,
    );
  }, binding);
}

export async function screenshot(page: Page, name: string): Promise<void> {
  await mkdir(ARTIFACTS, { recursive: true });
  await page.screenshot({ path: `${ARTIFACTS}${name}.png`, fullPage: true });
}

export type AxeViolation = { id: string; impact: string | null; help: string; nodes: { target: string[]; html: string }[] };

let axeSource: Promise<string> | null = null;

/** axe-core's violations on the page as it is now: every rule, or only `rules` (their ids). */
async function axeViolations(page: Page, rules?: string[]): Promise<AxeViolation[]> {
  const hasAxe = await page.evaluate(() => typeof (window as unknown as { axe?: unknown }).axe !== "undefined");
  // Evaluated through the devtools protocol: a <script> tag (addScriptTag) is inline script, which the CSP refuses.
  axeSource ??= readFile(require.resolve("axe-core/axe.min.js"), "utf8");
  if (!hasAxe) await page.evaluate(await axeSource);
  const options = { resultTypes: ["violations"], ...(rules ? { runOnly: { type: "rule", values: rules } } : {}) };
  return page.evaluate(async (options) => {
    const axe = (window as unknown as { axe: { run: (ctx: Document, options: object) => Promise<{ violations: AxeViolation[] }> } }).axe;
    const result = await axe.run(document, options);
    return result.violations.map((v) => ({
      id: v.id,
      impact: v.impact,
      help: v.help,
      nodes: v.nodes.slice(0, 5).map((n) => ({ target: n.target, html: n.html.slice(0, 200) })),
    }));
  }, options);
}

/** Every finite animation on the page at its end: colours are read as shown, never halfway through a fade or a slide. */
export async function settledAnimations(page: Page): Promise<void> {
  await page.evaluate(() =>
    Promise.all(
      document
        .getAnimations()
        .filter((a) => a.effect?.getTiming().iterations !== Infinity)
        .map((a) => a.finished.catch(() => undefined)),
    ),
  );
}

/** axe-core's serious and critical violations on the page once its animations have settled (a button just enabled is still fading in). */
export async function seriousViolations(page: Page): Promise<AxeViolation[]> {
  await settledAnimations(page);
  return (await axeViolations(page)).filter((v) => v.impact === "serious" || v.impact === "critical");
}

/** axe's landmark rules (most only "moderate"): one banner, main and footer, none inside another, each landmark told apart. */
export const LANDMARK_RULES = [
  "landmark-banner-is-top-level",
  "landmark-no-duplicate-banner",
  "landmark-main-is-top-level",
  "landmark-no-duplicate-main",
  "landmark-one-main",
  "landmark-contentinfo-is-top-level",
  "landmark-no-duplicate-contentinfo",
  "landmark-complementary-is-top-level",
  "landmark-unique",
];

/** The page's violations of axe's landmark rules. */
export const landmarkViolations = (page: Page): Promise<AxeViolation[]> => axeViolations(page, LANDMARK_RULES);
