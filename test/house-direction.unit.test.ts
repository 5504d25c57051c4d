import { fileURLToPath } from "node:url";
import { ESLint } from "eslint";
import { describe, expect, it } from "vitest";

// `npm run lint` enforces the house direction (eslint.config.js): these imports must fail it, and
// the ones the architecture allows must pass, so the rule can neither rot nor block honest code.

const root = fileURLToPath(new URL("..", import.meta.url));
const eslint = new ESLint({ cwd: root });

async function problems(filePath: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(`${code}\nexport const used = x;\n`, { filePath: `${root}${filePath}` });
  return result!.messages.filter((m) => m.ruleId === "no-restricted-imports").map((m) => m.message);
}

describe("the house direction", () => {
  it.each([
    ["an arrow back up: the engine importing the API", "engine/src/calendar/x.ts", 'import { x } from "@booking/api";'],
    ["a sibling: projections importing the engine", "projections/src/x.ts", 'import { x } from "@booking/engine";'],
    ["the browser importing the engine", "web/src/x.tsx", 'import { x } from "@booking/engine";'],
    ["the console importing projections", "admin/src/x.tsx", 'import { x } from "@booking/projections";'],
    ["contracts importing anything of ours", "contracts/src/x.ts", 'import { x } from "@booking/engine";'],
    ["a package's internals by name", "api/src/x.ts", 'import { x } from "@booking/engine/src/calendar/calendar.ts";'],
    ["a package's internals by relative path", "api/src/routes/x.ts", 'import { x } from "../../../engine/src/calendar/calendar.ts";'],
    [
      "the pure core reaching for its adapters: the engine importing the event store",
      "engine/src/calendar/x.ts",
      'import { x } from "@booking/event-store";',
    ],
    ["the pure core reaching for a database: the engine importing pg", "engine/src/calendar/x.ts", 'import x from "pg";'],
    ["the pure core reaching for the bus: the engine importing kafkajs", "engine/src/x.ts", 'import { x } from "kafkajs";'],
    [
      "what the browser imports reaching for a store: contracts importing the EventStoreDB client",
      "contracts/src/x.ts",
      'import { x } from "@eventstore/db-client";',
    ],
    ["the browser importing the event store", "web/src/x.tsx", 'import { x } from "@booking/event-store";'],
    ["the event store importing projections", "event-store/src/x.ts", 'import { x } from "@booking/projections";'],
  ])("refuses %s", async (_what, filePath, code) => {
    expect(await problems(filePath, code)).toHaveLength(1);
  });

  it.each([
    [
      "the API importing the engine and projections",
      "api/src/x.ts",
      'import { x } from "@booking/engine";\nimport { y } from "@booking/projections";\nvoid y;',
    ],
    [
      "the event store importing the engine and a database",
      "event-store/src/x.ts",
      'import { x } from "@booking/engine";\nimport pg from "pg";\nvoid pg;',
    ],
    ["projections and the API importing the event store", "projections/src/x.ts", 'import { x } from "@booking/event-store";'],
    ["the API importing the event store", "api/src/x.ts", 'import { x } from "@booking/event-store";'],
    ["the web app importing contracts", "web/src/x.tsx", 'import { x } from "@booking/contracts";'],
    ["a file of its own package", "admin/src/dashboard/x.tsx", 'import { x } from "../projections/projection-record.ts";'],
  ])("allows %s", async (_what, filePath, code) => {
    expect(await problems(filePath, code)).toEqual([]);
  });
});
