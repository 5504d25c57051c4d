import { defineConfig } from "vitest/config";

// One configuration, one project per workspace (and per kind of suite where they need services).
export default defineConfig({
  test: {
    reporters: ["default", "./testkit/src/summary-reporter.ts"],
    projects: [
      { test: { name: "contracts", root: "./contracts", include: ["test/**/*.test.ts"] } },
      // The browser's session (web and console): jsdom for storage and tab events, a fake API.
      { test: { name: "session-client", root: "./session-client", include: ["test/**/*.test.ts"], environment: "jsdom" } },
      // The house direction: `npm run lint` refuses imports that run against it.
      { test: { name: "house", root: ".", include: ["test/**/*.test.ts"], testTimeout: 60_000 } },
      // Property tests do real work per run; under a loaded CI machine 5 s is not enough.
      { test: { name: "engine-unit", root: "./engine", include: ["test/unit/**/*.test.ts"], testTimeout: 60_000 } },
      {
        test: {
          name: "event-store",
          root: "./event-store",
          include: ["test/**/*.test.ts"],
          globalSetup: ["../testkit/src/global-setup.ts"],
          testTimeout: 120_000,
          hookTimeout: 120_000,
        },
      },
      {
        test: {
          name: "projections",
          root: "./projections",
          include: ["test/**/*.test.ts"],
          globalSetup: ["../testkit/src/global-setup.ts"],
          testTimeout: 300_000,
          hookTimeout: 120_000,
        },
      },
      "./web/vitest.config.ts",
      "./web/vitest.e2e.config.ts",
      "./admin/vitest.e2e.config.ts",
      {
        test: {
          name: "api",
          root: "./api",
          include: ["test/**/*.test.ts"],
          globalSetup: ["../testkit/src/global-setup.ts"],
          testTimeout: 300_000,
          hookTimeout: 120_000,
        },
      },
    ],
  },
});
