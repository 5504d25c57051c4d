import { defineConfig } from "vitest/config";

// One configuration, a project per workspace and layer. A suite's file name says its layer:
// `*.unit.test.ts` needs nothing running, `*.int.test.ts` a real Postgres (and Kafka, EventStoreDB
// where given), `*.e2e.test.ts` a browser or the whole product. Only int and e2e projects start
// services (globalSetup), so `vitest run .unit.test.` (npm run test:unit) needs no database.
// Pure unit projects share one module graph per worker (isolate: false): they hold no state
// between files, and loading the modules once took these 74 files from 52 s to 27 s. The jsdom
// projects keep isolation: shared, they failed and were no faster (their time is rendering).

const services = { globalSetup: ["../testkit/src/global-setup.ts"], testTimeout: 300_000, hookTimeout: 120_000 };

export default defineConfig({
  test: {
    // Once per run, before any project: a Kafka broker unless KAFKA_BROKERS is given (testkit/src/kafka-setup.ts).
    globalSetup: ["./testkit/src/kafka-setup.ts"],
    reporters: ["default", "./testkit/src/summary-reporter.ts"],
    // Two test files at once on the embedded servers, each worker on its own Postgres server
    // (testkit/src/global-setup.ts says why they cannot share one); one at a time on a DATABASE_URL.
    maxWorkers: process.env.DATABASE_URL ? 1 : 2,
    projects: [
      { test: { name: "contracts", root: "./contracts", include: ["test/**/*.unit.test.ts"], isolate: false } },
      // The browser's session (web and console): jsdom for storage and tab events, a fake API.
      { test: { name: "session-client", root: "./session-client", include: ["test/**/*.unit.test.ts"], environment: "jsdom" } },
      // The house direction: `npm run lint` refuses imports that run against it.
      { test: { name: "house", root: ".", include: ["test/**/*.unit.test.ts"], testTimeout: 60_000, isolate: false } },
      // Property tests do real work per run; under a loaded CI machine 5 s is not enough.
      { test: { name: "engine", root: "./engine", include: ["test/**/*.unit.test.ts"], testTimeout: 60_000, isolate: false } },
      { test: { name: "event-store", root: "./event-store", include: ["test/**/*.int.test.ts"], ...services, testTimeout: 120_000 } },
      { test: { name: "event-store-unit", root: "./event-store", include: ["test/**/*.unit.test.ts"], isolate: false } },
      // Each read model's rule, given events / then rows, without a database.
      { test: { name: "projections", root: "./projections", include: ["test/**/*.unit.test.ts"], isolate: false } },
      { test: { name: "projections-int", root: "./projections", include: ["test/**/*.int.test.ts"], ...services } },
      "./web/vitest.config.ts",
      "./web/vitest.e2e.config.ts",
      "./admin/vitest.e2e.config.ts",
      // jsdom screens are CPU-bound: slow under a loaded 2-core machine, as the web app's are (web/vitest.config.ts).
      {
        test: {
          name: "admin",
          root: "./admin",
          include: ["test/**/*.unit.test.{ts,tsx}"],
          environment: "jsdom",
          setupFiles: ["./vitest.setup.ts"],
          testTimeout: 60_000,
        },
      },
      { test: { name: "api", root: "./api", include: ["test/**/*.int.test.ts"], ...services } },
      // Property tests here too (availability answers): 5 s is not enough on a loaded machine.
      { test: { name: "api-unit", root: "./api", include: ["test/**/*.unit.test.ts"], testTimeout: 60_000, isolate: false } },
      // `npm start` on a fresh data directory and on a taken port: the product as a user starts it.
      { test: { name: "api-e2e", root: "./api", include: ["test/**/*.e2e.test.ts"], ...services } },
    ],
  },
});
