import { renderToString } from "react-dom/server";
import { StaticRouter } from "react-router-dom";
import { App } from "../app.tsx";

// Run at build time in Node (the `prerenderLanding` plugin in vite.config.ts), not shipped to the
// browser. The landing page is the same for every visitor until the app has started (signed-in
// state is only known after GET /auth/me), so it is rendered once, with the styles it needs inline,
// and the first paint needs index.html alone (issue 19: LCP).

/** The landing page's markup, with emotion's <style> tags beside the elements they style. */
export function renderLanding(): string {
  return renderToString(<App router={({ children }) => <StaticRouter location="/">{children}</StaticRouter>} />);
}
