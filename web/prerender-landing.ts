import { readFile, writeFile } from "node:fs/promises";
import { join, resolve } from "node:path";
import react from "@vitejs/plugin-react";
import { createServer, type Plugin, type ResolvedConfig, type UserConfig } from "vite";

/** What the built index.html holds for the app to fill. */
const EMPTY_ROOT = '<div id="root"></div>';

/**
 * After the browser bundle is written: render the landing page in Node (src/landing/prerender.tsx)
 * into a copy of the built index.html, `landing.html`, which the API sends for `/` only
 * (api/src/main/built-apps.ts). Its scripts are index.html's, so the page React hydrates is this build's.
 * The render runs through a Vite server with the build's mode and `define` (the VITE_* flags), so
 * it compiles the same source the same way the bundle did.
 */
export function prerenderLanding(): Plugin {
  let config: ResolvedConfig;
  let define: UserConfig["define"];
  return {
    name: "prerender-landing",
    apply: "build",
    config(user) {
      define = user.define;
    },
    configResolved(resolved) {
      config = resolved;
    },
    async writeBundle() {
      const outDir = resolve(config.root, config.build.outDir);
      const server = await createServer({
        configFile: false,
        root: config.root,
        mode: config.mode,
        define,
        logLevel: "error",
        plugins: [react()],
        appType: "custom",
        server: { middlewareMode: true, hmr: false, ws: false },
        optimizeDeps: { noDiscovery: true, include: [] },
      });
      try {
        const { renderLanding } = (await server.ssrLoadModule("/src/landing/prerender.tsx")) as { renderLanding: () => string };
        const index = await readFile(join(outDir, "index.html"), "utf8");
        if (!index.includes(EMPTY_ROOT)) throw new Error(`prerender-landing: ${outDir}/index.html has no ${EMPTY_ROOT}`);
        await writeFile(join(outDir, "landing.html"), index.replace(EMPTY_ROOT, `<div id="root">${renderLanding()}</div>`));
      } finally {
        await server.close();
      }
    },
  };
}
