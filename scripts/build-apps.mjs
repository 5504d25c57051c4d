// Build the web app and the admin console when their bundle is missing or older than their sources.
// Runs before `npm start`, so a fresh clone serves both without a separate build step.
import { spawn } from "node:child_process";
import { existsSync, readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { precompress } from "./precompress.mjs";

const root = new URL("..", import.meta.url).pathname;
const force = process.argv.includes("--force");
// BUILD_APPS=0 serves the API alone (tests that need no web pages).
if (process.env.BUILD_APPS === "0" && !force) process.exit(0);

function newest(dir) {
  let latest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    latest = Math.max(latest, entry.isDirectory() ? newest(path) : statSync(path).mtimeMs);
  }
  return latest;
}

function stale(app) {
  const index = join(root, app, "dist", "index.html");
  if (!existsSync(index)) return true;
  // The Vite config and its plugins (web/prerender-landing.ts) shape the build as much as the sources.
  const config = readdirSync(join(root, app))
    .filter((f) => /\.(ts|mts|js|mjs)$/.test(f) && !f.startsWith("vitest"))
    .map((f) => join(root, app, f));
  const sources = [
    join(root, app, "src"),
    join(root, app, "index.html"),
    ...config,
    join(root, "contracts", "src"),
    join(root, "session-client", "src"),
  ];
  return sources.some((s) => existsSync(s) && (statSync(s).isDirectory() ? newest(s) : statSync(s).mtimeMs) > statSync(index).mtimeMs);
}

const apps = ["web", "admin"].filter((app) => existsSync(join(root, app, "index.html")) && (force || stale(app)));
// Up to date but built by `vite build` alone (the e2e suites, the Dockerfile's `npm run build -w web`),
// which does not compress: compressed now, so the server sends every text asset br or gzip.
for (const app of ["web", "admin"]) {
  const assets = join(root, app, "dist", "assets");
  if (!apps.includes(app) && existsSync(assets) && !readdirSync(assets).some((f) => f.endsWith(".gz")))
    precompress(join(root, app, "dist"));
}
if (apps.length === 0) process.exit(0);
console.log(`Building ${apps.join(" and ")} ...`);
const results = await Promise.all(
  apps.map(
    (app) =>
      new Promise((resolve) => {
        const child = spawn("npx", ["vite", "build", "--logLevel", "warn"], {
          cwd: join(root, app),
          stdio: "inherit",
          env: { ...process.env, NODE_ENV: "production" },
        });
        child.on("exit", (code) => resolve({ app, code }));
      }),
  ),
);
const failed = results.filter((r) => r.code !== 0);
if (failed.length) {
  console.error(`Build failed: ${failed.map((f) => f.app).join(", ")}`);
  process.exit(1);
}
// Compressed once here, sent as they are (see api/src/main/built-apps.ts).
for (const { app } of results) precompress(join(root, app, "dist"));
