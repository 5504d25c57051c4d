import { defineConfig, type Plugin } from "vite";
import react from "@vitejs/plugin-react";
import { prerenderLanding } from "./prerender-landing.ts";

/**
 * Vendor chunks of what the first page needs (the `$initial` tag: statically imported from the
 * entry), so they stay cached across releases of the app's own code; modules only lazy pages use
 * stay with those pages. `e2e/landing-chunks.e2e.test.ts` holds the first load to this.
 */
const vendor = (name: string, test: RegExp) => ({ name, test, tags: ["$initial" as const] });

/** MUI's modules for themes built on CSS variables, as its styles/ folder imports them. */
const CSS_VARS_THEMING = /^\.\/(createThemeWithVars|ThemeProviderWithVars)\.mjs$/;
const UNUSED = "\0mui-css-vars-unused:";

/**
 * MUI's createTheme and ThemeProvider import its CSS-variables theming (createThemeWithVars,
 * CssVarsProvider and the colour-scheme script: 7.5 KB gzip of the first load) whether or not a theme
 * asks for it. Ours does not (no `cssVariables`, no `colorSchemes`: src/shared/theme.ts), so MUI
 * takes its plain path at run time; the build gets stand-ins that fail loudly should a theme ever ask (issue 19).
 */
function withoutCssVarsTheming(): Plugin {
  return {
    name: "mui-without-css-vars-theming",
    apply: "build",
    enforce: "pre",
    resolveId(source, importer) {
      const module = CSS_VARS_THEMING.exec(source)?.[1];
      return module && importer && /[\\/]@mui[\\/]material[\\/]styles[\\/]/.test(importer) ? `${UNUSED}${module}` : null;
    },
    load(id) {
      if (!id.startsWith(UNUSED)) return null;
      const stub = `() => { throw new Error("MUI's CSS-variables theming is left out of the build (web/vite.config.ts)"); }`;
      return id.endsWith("createThemeWithVars")
        ? `const unused = ${stub};\nexport default unused;\nexport const createGetCssVar = unused;`
        : `const unused = ${stub};\nexport { unused as CssVarsProvider, unused as useColorScheme, unused as getInitColorSchemeScript };\n` +
            "export { unused as Experimental_CssVarsProvider };";
    },
  };
}

// The creator and expert web app. `npm start` (the API) serves the build in dist/ at `/`;
// `vite` (dev) forwards the API to a running `npm start`.
export default defineConfig({
  root: import.meta.dirname,
  plugins: [withoutCssVarsTheming(), react(), prerenderLanding()],
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
