import { readFileSync } from "node:fs";
import { expect, it } from "vitest";

// Node 20 reached its end of life in April 2026 (issue 28.6): the suites run on the LTS line that
// package.json's engines names, taken from the npm registry where the system's Node is older.
it("the tests run on the Node LTS line that package.json's engines names", () => {
  const engines = (JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8")) as { engines: { node: string } }).engines
    .node;
  const line = Number(/^>=(\d+)$/.exec(engines)?.[1]);
  expect(line).toBeGreaterThanOrEqual(24);
  expect(Number(process.versions.node.split(".")[0])).toBe(line);
});
