import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { ESLint } from "eslint";
import * as prettier from "prettier";
import { describe, expect, it } from "vitest";

// One formatter for the tree (issue 28.3): `npm run lint` runs Prettier's check after ESLint, so CI
// refuses an unformatted file, and ESLint refuses a source line over 160 characters, which
// Prettier leaves alone when it cannot break it (a long string).

const root = fileURLToPath(new URL("..", import.meta.url));
const lintScript = (JSON.parse(readFileSync(`${root}package.json`, "utf8")) as { scripts: Record<string, string> }).scripts.lint;

describe("one formatter", () => {
  it("npm run lint checks the formatting of the whole tree", () => {
    expect(lintScript).toMatch(/\bprettier --check \.(\s|$)/);
  });

  it("an unformatted source file fails the check, the same file formatted passes", async () => {
    const filepath = `${root}api/src/bookings/example.ts`;
    const options = { ...(await prettier.resolveConfig(filepath)), filepath };
    const unformatted = 'export const reply = {status:"confirmed",  amount_cents : 15000}\n';
    expect(await prettier.check(unformatted, options)).toBe(false);
    expect(await prettier.check(await prettier.format(unformatted, options), options)).toBe(true);
  });

  it("refuses a source line over 160 characters", async () => {
    const eslint = new ESLint({ cwd: root });
    const long = `export const sentence = "${"a".repeat(170)}";\n`;
    const [result] = await eslint.lintText(long, { filePath: `${root}web/src/example.ts` });
    expect(result!.messages.map((m) => m.ruleId)).toContain("max-len");
    const [short] = await eslint.lintText('export const sentence = "short";\n', { filePath: `${root}web/src/example.ts` });
    expect(short!.messages.map((m) => m.ruleId)).not.toContain("max-len");
  });
});
