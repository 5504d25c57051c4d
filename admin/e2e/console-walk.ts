import { mkdir } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import type { Browser, Page } from "playwright-core";
import { afterAll, afterEach, beforeAll, expect } from "vitest";
import type { RunningApi } from "../../api/src/main/server.ts";
import { launchChromium, takeCspViolations } from "../../web/e2e/chromium.ts";
import { callApi } from "../../web/e2e/product-api.ts";
import { ADMIN, startProduct, type ProductServer } from "../../web/e2e/product-server.ts";
import { testPostgresUrl } from "@booking/testkit/worker-postgres";

// A console walk's frame: the whole product in this process on a fresh database, data made by
// `seed`, then a Chromium page with the admin signed in; every test is checked for CSP violations.

export const artifacts = fileURLToPath(new URL("./artifacts/", import.meta.url));

export type ConsoleWalk = {
  api: RunningApi;
  base: string;
  page: Page;
  /** The console at a hash route. */
  consoleUrl: (hashPath?: string) => string;
  /** An API call that must succeed (status below 300); its JSON reply. */
  must: <T>(method: string, path: string, options?: { body?: unknown; token?: string }) => Promise<T>;
  signIn: (email: string, password: string) => Promise<string>;
};

/** Register the walk's hooks; the returned object is filled in before the first test. */
export function consoleWalk(seed: (walk: Omit<ConsoleWalk, "page">) => Promise<void>, setupTimeoutMs = 120_000): ConsoleWalk {
  const walk = {} as ConsoleWalk;
  let product: ProductServer | undefined;
  let browser: Browser | undefined;
  beforeAll(async () => {
    product = await startProduct(testPostgresUrl());
    const base = product.url;
    const must: ConsoleWalk["must"] = <T>(method: string, path: string, options: { body?: unknown; token?: string } = {}) =>
      callApi<T>(base, method, path, options.token ?? null, options.body);
    Object.assign(walk, {
      api: product.api,
      base,
      consoleUrl: (hashPath = "") => `${base}/admin/${hashPath ? `#${hashPath}` : ""}`,
      must,
      signIn: async (email: string, password: string) =>
        (await must<{ access_token: string }>("POST", "/auth/login", { body: { email, password } })).access_token,
    });
    await seed(walk);
    await mkdir(artifacts, { recursive: true });
    browser = await launchChromium();
    const context = await browser.newContext({ viewport: { width: 1440, height: 1000 }, locale: "en-US", timezoneId: "UTC" });
    walk.page = await context.newPage();
    walk.page.setDefaultTimeout(15_000);
    await walk.page.goto(walk.consoleUrl());
    await walk.page.getByLabel("Email").fill(ADMIN.email);
    await walk.page.getByLabel("Password").fill(ADMIN.password);
    await walk.page.getByRole("button", { name: "Sign in" }).click();
    await walk.page.getByTestId("bookings-by-status").waitFor();
  }, setupTimeoutMs);
  afterEach(() => {
    if (browser) expect(takeCspViolations(browser), "Content-Security-Policy violations").toEqual([]);
  });
  afterAll(async () => {
    await browser?.close();
    await product?.stop();
  });
  return walk;
}
