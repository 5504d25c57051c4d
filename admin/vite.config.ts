import { readFile, writeFile } from "node:fs/promises";
import { join, resolve } from "node:path";
import react from "@vitejs/plugin-react";
import { createServer, defineConfig, type Plugin, type ResolvedConfig } from "vite";

/**
 * Vendor chunks of what the sign-in page needs (the `$initial` tag: statically imported from the
 * entry), as in web/vite.config.ts, so they stay cached across releases of the console's own code.
 * react-admin and the console (app.tsx) are not among them: they load once an admin signs in.
 * e2e/console.e2e.test.ts holds the sign-in page to that.
 */
const vendor = (name: string, test: RegExp) => ({ name, test, tags: ["$initial" as const] });

/** What the built index.html holds for the page to fill. */
const EMPTY_ROOT = '<div id="root"></div>';

/**
 * After the bundle is written: render the sign-in page in Node (src/sign-in-prerender.tsx) into the
 * built index.html, so that it paints before the scripts arrive (issue 34: LCP), as
 * web/prerender-landing.ts does for the landing page. The render runs through a Vite server with
 * the build's mode, so it compiles the same source the same way the bundle did.
 */
function prerenderSignIn(): Plugin {
  let config: ResolvedConfig;
  return {
    name: "prerender-sign-in",
    apply: "build",
    configResolved(resolved) {
      config = resolved;
    },
    async writeBundle() {
      const index = join(resolve(config.root, config.build.outDir), "index.html");
      const server = await createServer({
        configFile: false,
        root: config.root,
        mode: config.mode,
        logLevel: "error",
        plugins: [react()],
        appType: "custom",
        server: { middlewareMode: true, hmr: false, ws: false },
        optimizeDeps: { noDiscovery: true, include: [] },
      });
      try {
        const { renderSignInPage } = (await server.ssrLoadModule("/src/sign-in-prerender.tsx")) as { renderSignInPage: () => string };
        const html = await readFile(index, "utf8");
        if (!html.includes(EMPTY_ROOT)) throw new Error(`prerender-sign-in: ${index} has no ${EMPTY_ROOT}`);
        await writeFile(index, html.replace(EMPTY_ROOT, `<div id="root">${renderSignInPage()}</div>`));
      } finally {
        await server.close();
      }
    },
  };
}

// The admin console, served by the API at /admin/ once built (`npm run build -w admin`).
// `npm run dev -w admin` serves it on its own and sends /api to an API on port 3000.
export default defineConfig({
  base: "/admin/",
  plugins: [react(), prerenderSignIn()],
  build: {
    outDir: "dist",
    emptyOutDir: true,
    // react-admin's chunk, fetched once signed in, is large; it is an internal tool.
    chunkSizeWarningLimit: 3000,
    // Every browser the console supports preloads modules itself.
    modulePreload: { polyfill: false },
    rolldownOptions: {
      output: {
        codeSplitting: {
          groups: [
            vendor("react", /node_modules[\\/](react|react-dom|scheduler)[\\/]/),
            vendor(
              "mui",
              /node_modules[\\/](@mui|@emotion|stylis|@babel[\\/]runtime|hoist-non-react-statics|prop-types|react-is|clsx|react-transition-group)[\\/]/,
            ),
          ],
        },
      },
    },
  },
  server: {
    proxy: { "/api": { target: process.env.API_URL ?? "http://localhost:3000", changeOrigin: true } },
  },
});
