import js from "@eslint/js";
import tseslint from "typescript-eslint";

/**
 * The house direction (../shared/ARCHITECTURE.md): which workspace may import which. A package is
 * imported only by its name and `index.ts`, never by a path into its folders, and never back up.
 */
export const HOUSE_DIRECTION = {
  contracts: [],
  engine: ["contracts"],
  "event-store": ["contracts", "engine"],
  projections: ["contracts", "event-store"],
  api: ["contracts", "engine", "event-store", "projections"],
  "session-client": ["contracts"],
  web: ["contracts", "session-client"],
  admin: ["contracts", "session-client"],
  testkit: [],
};
const PACKAGES = Object.keys(HOUSE_DIRECTION);

/**
 * The pure core: the engine decides and contracts is imported by the browser, so neither may
 * reach a database, the bus or the network. Their drivers live in @booking/event-store.
 */
const PURE = ["contracts", "engine"];
const IO_DRIVERS = ["pg", "kafkajs", "@eventstore/db-client"];

function directionRules(name, allowed) {
  const others = PACKAGES.filter((p) => p !== name && !allowed.includes(p));
  return {
    files: [`${name}/src/**/*.{ts,tsx}`],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          patterns: [
            ...(PURE.includes(name)
              ? [
                  {
                    regex: `^(${IO_DRIVERS.join("|")})(/.*)?$`,
                    message: `${name} is the pure core, without I/O: database, bus and store clients belong in @booking/event-store.`,
                  },
                ]
              : []),
            ...(others.length
              ? [
                  {
                    regex: `^@booking/(${others.join("|")})(/.*)?$`,
                    message: `${name} may import only ${allowed.length ? allowed.map((p) => `@booking/${p}`).join(", ") : "no package of ours"} (the house direction).`,
                  },
                ]
              : []),
            { regex: "^@booking/[^/]+/.+", message: "Import a package by its name (its index.ts), never its internals." },
            {
              regex: `^(\\.\\./)+(${PACKAGES.join("|")}|bench)/(src|test|e2e)/`,
              message: "Reach another package by its name, not by a relative path into its folder.",
            },
          ],
        },
      ],
    },
  };
}

/**
 * api/src is one folder per product area (api/README.md): another area's files are reached only
 * through its index.ts, which exports what other areas may use. processes/ (one file per process)
 * and main/ (what builds one) are one composition root and see each other's files.
 */
const API_AREA_MESSAGE =
  "Import another area through its index.ts (../<area>/index.ts), which exports what other areas may use: add the export there (api/README.md).";
const COMPOSITION = ["main", "processes"];

function apiAreaRules() {
  const direction = directionRules("api", HOUSE_DIRECTION.api).rules["no-restricted-imports"][1].patterns;
  const rule = (up, except) => ({
    "no-restricted-imports": [
      "error",
      { patterns: [...direction, { regex: `^${up}(?!\\.\\.?/)${except}[^/]+/(?!index\\.ts$)`, message: API_AREA_MESSAGE }] },
    ],
  });
  // One block per depth below an area's folder: `../x/` from api/src/a/, `../../x/` from api/src/a/b/.
  return [1, 2, 3].flatMap((depth) => {
    const up = "\\.\\./".repeat(depth);
    const below = "*/".repeat(depth - 1);
    return [
      { files: [`api/src/*/${below}*.ts`], rules: rule(up, "") },
      { files: COMPOSITION.map((a) => `api/src/${a}/${below}*.ts`), rules: rule(up, `(?!(${COMPOSITION.join("|")})/)`) },
    ];
  });
}

export default tseslint.config(
  { ignores: ["**/node_modules/**", "**/dist/**", ".data/**"] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    // Plain Node scripts.
    files: ["scripts/**/*.mjs"],
    languageOptions: { globals: { process: "readonly", console: "readonly", URL: "readonly" } },
  },
  {
    rules: {
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
      "@typescript-eslint/consistent-type-imports": "error",
    },
  },
  {
    // Prettier formats the tree (npm run lint checks it) but cannot break a long string or comment.
    files: ["*/src/**/*.{ts,tsx}"],
    rules: { "max-len": ["error", { code: 160, ignoreUrls: false }] },
  },
  ...Object.entries(HOUSE_DIRECTION).map(([name, allowed]) => directionRules(name, allowed)),
  ...apiAreaRules(),
);
