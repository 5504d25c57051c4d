import { defineConfig } from "vite";
import react from "@vitejs/plugin-react";
import { prerenderLanding } from "./prerender-landing.ts";

/**
 * Vendor chunks of what the first page needs (the `$initial` tag: statically imported from the
 * entry), so they stay cached across releases of the app's own code; modules only lazy pages use
 * stay with those pages. `e2e/landing-chunks.e2e.test.ts` holds the first load to this.
 */
const vendor = (name: string, test: RegExp) => ({ name, test, tags: ["$initial" as const] });

// The creator and expert web app. `npm start` (the API) serves the build in dist/ at `/`;
// `vite` (dev) forwards the API to a running `npm start`.
export default defineConfig({
  root: import.meta.dirname,
  plugins: [react(), prerenderLanding()],
  // Where "Need help?" leads: our own /help page unless HELP_URL names another (issue 27.3). Read at build time.
  define: { "import.meta.env.HELP_URL": JSON.stringify(process.env.HELP_URL ?? "") },
  build: {
    outDir: "dist",
    emptyOutDir: true,
    chunkSizeWarningLimit: 2000,
    // Every browser the app supports preloads modules itself.
    modulePreload: { polyfill: false },
    rolldownOptions: {
      output: {
        codeSplitting: {
          groups: [
            vendor("react", /node_modules[\\/](react|react-dom|scheduler|react-router|react-router-dom|cookie|set-cookie-parser)[\\/]/),
            vendor(
              "mui",
              /node_modules[\\/](@mui|@emotion|stylis|@babel[\\/]runtime|hoist-non-react-statics|prop-types|react-is|clsx|react-transition-group)[\\/]/,
            ),
            vendor("query", /node_modules[\\/]@tanstack[\\/]/),
          ],
        },
      },
    },
  },
  server: {
    proxy: {
      "/api": { target: "http://localhost:3000", changeOrigin: true },
    },
  },
});
