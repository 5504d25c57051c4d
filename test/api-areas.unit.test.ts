import { fileURLToPath } from "node:url";
import { ESLint } from "eslint";
import { describe, expect, it } from "vitest";

// api/src is one folder per product area (api/README.md). `npm run lint` refuses an import of
// another area's files: an area is reached through its index.ts, which exports what others may use.

const root = fileURLToPath(new URL("..", import.meta.url));
const eslint = new ESLint({ cwd: root });

async function problems(filePath: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(`${code}\nexport const used = x;\n`, { filePath: `${root}${filePath}` });
  return result!.messages.filter((m) => m.ruleId === "no-restricted-imports").map((m) => m.message);
}

describe("the areas of api/src", () => {
  it.each([
    ["a route reaching into http/'s files", "api/src/bookings/routes.ts", 'import { x } from "../http/errors.ts";'],
    ["a reactor taking another area's internals", "api/src/mail/sender.ts", 'import { x } from "../refunds/owed.ts";'],
    ["a type from another area's file", "api/src/sessions/routes.ts", 'import type { x } from "../main/commands.ts";'],
    ["a re-export of another area's file", "api/src/terms/x.ts", 'export { x } from "../auth/routes.ts";'],
    [
      "a file in a subfolder reaching into another area",
      "api/src/mail/templates/x.ts",
      'import { x } from "../../calendar-invites/ics.ts";',
    ],
    ["a process entrypoint reaching into an area's files", "api/src/processes/mail.ts", 'import { x } from "../mail/delivery.ts";'],
    ["the composition root reaching into an area's files", "api/src/main/app.ts", 'import { x } from "../bookings/routes.ts";'],
  ])("refuses %s", async (_what, filePath, code) => {
    const found = await problems(filePath, code);
    expect(found).toHaveLength(1);
    expect(found[0]).toMatch(/through its index\.ts/);
  });

  it.each([
    ["another area through its index.ts", "api/src/bookings/routes.ts", 'import { x } from "../http/index.ts";'],
    ["a file of its own area", "api/src/bookings/routes.ts", 'import { x } from "./creator-booking-lock.ts";'],
    ["its own subfolder", "api/src/mail/sender.ts", 'import { x } from "./templates/when.ts";'],
    ["its own area from a subfolder", "api/src/mail/templates/x.ts", 'import { x } from "../outbox.ts";'],
    ["another area's index from a subfolder", "api/src/mail/templates/x.ts", 'import { x } from "../../calendar-invites/index.ts";'],
    ["a process entrypoint building the process from main/", "api/src/processes/api.ts", 'import { x } from "../main/server.ts";'],
    ["the composition root mounting an area", "api/src/main/app.ts", 'import { x } from "../bookings/index.ts";'],
  ])("allows %s", async (_what, filePath, code) => {
    expect(await problems(filePath, code)).toEqual([]);
  });
});
