import { CssBaseline } from "@mui/material";
import { createTheme, ThemeProvider } from "@mui/material/styles";
import { useEffect, useRef, useState } from "react";
import { consoleTheme } from "./layout/console-theme.ts";
import { SignInPage } from "./layout/sign-in-page.tsx";
import { loadSignInApi, LoginProvider, type Login } from "./sign-in-calls.ts";

// The console's sign-in page on its own (issue 34): a visitor who is not signed in gets the page
// with React and MUI only, not react-admin and the console; signing in loads the console. The
// page looks and behaves as react-admin's login page does (app.tsx still uses it as that, after a
// sign-out or an expired session): the console's theme, the address #/login, and back to the page
// the link named once signed in.

const theme = createTheme(consoleTheme);

/**
 * Puts the address react-admin gives its sign-in page, #/login, in place of the one the page was
 * opened at (replaced: Back leaves the console, as before), before the page renders. Returns where
 * the admin was going: the page a link named (react-admin returns there after signing in), else the dashboard.
 */
export function showSignInAddress(): string {
  const path = window.location.hash.replace(/^#/, "");
  if (path !== "/login") history.replaceState(history.state, "", "#/login");
  return path && !path.startsWith("/login") ? path : "/";
}

/** `openConsole`: loads the console and shows it at `next`, signed in. */
export function SignInEntry({ next, openConsole }: { next: string; openConsole: (path: string) => Promise<void> }) {
  // The page arrives prerendered (sign-in-prerender.tsx): its fields take input once React has taken it over, not before.
  const [live, setLive] = useState(false);
  const fields = useRef<HTMLFieldSetElement>(null);
  const login: Login = async (params) => {
    await (await loadSignInApi()).authProvider.login(params);
    await openConsole(next);
  };

  useEffect(() => {
    setLive(true);
    // The calls' chunk once the page is up, so that signing in does not wait for it.
    const fetchCalls = () => void loadSignInApi().catch(() => undefined);
    if (document.readyState === "complete") fetchCalls();
    else window.addEventListener("load", fetchCalls, { once: true });
    return () => window.removeEventListener("load", fetchCalls);
  }, []);

  useEffect(() => {
    // The focus the email field's autoFocus asks for: React gave it while the fieldset held the field disabled.
    if (live) fields.current?.querySelector("input")?.focus();
  }, [live]);

  return (
    <ThemeProvider theme={theme}>
      <CssBaseline enableColorScheme>
        <fieldset ref={fields} disabled={!live} style={{ display: "contents" }}>
          <LoginProvider value={login}>
            <SignInPage />
          </LoginProvider>
        </fieldset>
      </CssBaseline>
    </ThemeProvider>
  );
}
