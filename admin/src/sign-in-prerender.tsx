import { StrictMode } from "react";
import { renderToString } from "react-dom/server";
import { SignInEntry } from "./sign-in-entry.tsx";

// Run at build time in Node (the `prerenderSignIn` plugin in vite.config.ts), not shipped to the
// browser, as web/src/landing/prerender.tsx is for the landing page. The sign-in page, signed out,
// is the same for every visitor: rendered once into index.html with the styles it needs inline, it
// paints with the page's HTML (issue 34: LCP); index.tsx hydrates it.

/** The sign-in page's markup, with emotion's <style> tags beside the elements they style. */
export function renderSignInPage(): string {
  return renderToString(
    <StrictMode>
      <SignInEntry next="/" openConsole={async () => undefined} />
    </StrictMode>,
  );
}
