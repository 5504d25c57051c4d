import { fileURLToPath } from "node:url";
import { defineProject } from "vitest/config";

// The admin console end to end: `vite build`, the real API (runApi) on embedded Postgres, and a
// real Chromium driven by playwright-core. Run from the repository root:
//   npx vitest run --config admin/vitest.e2e.config.ts
export default defineProject({
  test: {
    name: "admin-e2e",
    root: fileURLToPath(new URL(".", import.meta.url)),
    environment: "node",
    include: ["e2e/**/*.e2e.test.ts"],
    globalSetup: ["./e2e/global-setup.ts", "../testkit/src/global-setup.ts"],
    testTimeout: 120_000,
    hookTimeout: 300_000,
  },
});
