import { fileURLToPath } from "node:url";
import { defineProject } from "vitest/config";

// The Playwright suite: the built app served by the real API (in-process, on real Postgres),
// driven in a real Chromium. The first global setup builds web/dist; the second is testkit's Postgres.
export default defineProject({
  test: {
    name: "web-e2e",
    root: fileURLToPath(new URL(".", import.meta.url)),
    include: ["e2e/**/*.e2e.test.ts"],
    environment: "node",
    globalSetup: ["./e2e/build-web.ts", "../testkit/src/global-setup.ts"],
    testTimeout: 240_000,
    hookTimeout: 300_000,
  },
});
