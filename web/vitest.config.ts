import { fileURLToPath } from "node:url";
import react from "@vitejs/plugin-react";
import { defineProject } from "vitest/config";

// Component tests: React screens in jsdom with @testing-library.
export default defineProject({
  plugins: [react()],
  test: {
    name: "web",
    root: fileURLToPath(new URL(".", import.meta.url)),
    include: ["src/**/*.unit.test.{ts,tsx}"],
    environment: "jsdom",
    setupFiles: ["./vitest.setup.ts"],
    // jsdom screens are CPU-bound: with two test files at once on a loaded 2-core machine one took 19.5 s.
    testTimeout: 60_000,
  },
});
