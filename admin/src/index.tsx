import { lazy, StrictMode, Suspense, useState } from "react";
import { createRoot, hydrateRoot } from "react-dom/client";
import { signedInBefore } from "./console-session.ts";
import { showSignInAddress, SignInEntry } from "./sign-in-entry.tsx";

// Signed out, the page is the sign-in page alone (sign-in-entry.tsx), and the console (react-admin,
// the resources: app.tsx) comes once the admin has signed in. Signed in before (the session
// client's marker), the page is the console, which takes the session up from the cookie and shows
// its own sign-in page if that session has ended.

const loadConsole = () => import("./app.tsx");
const Console = lazy(async () => ({ default: (await loadConsole()).App }));

/** `next`: where a signed-out admin was going, once signed in; null when signed in before. */
function ConsolePage({ next }: { next: string | null }) {
  const [signedIn, setSignedIn] = useState(next === null);
  if (signedIn || next === null)
    return (
      <Suspense fallback={null}>
        <Console />
      </Suspense>
    );
  const openConsole = async (path: string) => {
    // Loaded while the sign-in page still shows its busy button.
    await loadConsole();
    history.pushState(null, "", `#${path}`);
    setSignedIn(true);
  };
  return <SignInEntry next={next} openConsole={openConsole} />;
}

const root = document.getElementById("root");
if (!root) throw new Error("The page has no #root element.");
const next = signedInBefore() ? null : showSignInAddress();
const page = (
  <StrictMode>
    <ConsolePage next={next} />
  </StrictMode>
);
// The built index.html holds the sign-in page, prerendered (sign-in-prerender.tsx): React takes it
// over when signed out; signed in, the console replaces it.
if (next !== null && root.firstElementChild) hydrateRoot(root, page);
else {
  root.replaceChildren();
  createRoot(root).render(page);
}
