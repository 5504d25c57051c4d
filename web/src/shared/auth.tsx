import { createContext, useCallback, useContext, useEffect, useMemo, useRef, useState, type ReactNode } from "react";
import { useQueryClient } from "@tanstack/react-query";
import type { SessionEnd } from "./api-client.ts";
import type { AuthSession, Me } from "./api-types.ts";

// Auth state of spec section 4: initializing, then authenticated (user and token) or signed out.
// A sign-in change reloads the profile (GET /auth/me); losing the session clears the user and
// empties the query cache.

export type AuthStatus = "initializing" | "authenticated" | "signed_out";

export type AuthState = {
  status: AuthStatus;
  user: Me | null;
  token: string | null;
  /** null while unknown (guards wait), then whether the current terms are accepted. */
  termsAccepted: boolean | null;
  /** Signed out because the session expired (the server refused to refresh it), not by logging out. */
  sessionExpired?: boolean;
};

type AuthContextValue = AuthState & {
  /** Reload the profile (after accepting terms, saving the expert profile...). */
  reloadUser: () => Promise<Me | null>;
  logout: () => Promise<void>;
};

/**
 * The API client and the stored session, loaded once the page has loaded: a visitor's first page
 * looks the same signed in or not until the profile arrives, so it need not wait for the client
 * and the error catalogue it carries (issue 19). Pages that call the API import it themselves.
 */
export const apiClient = async () => {
  if (document.readyState !== "complete") await new Promise((loaded) => window.addEventListener("load", loaded, { once: true }));
  return import("./api-client.ts");
};

const AuthContext = createContext<AuthContextValue | null>(null);

/** The greeting name: first name, else the part of the e-mail before the @, else User. */
export function displayName(user: Pick<Me, "first_name" | "email"> | null): string {
  if (!user) return "User";
  if (user.first_name?.trim()) return user.first_name.trim();
  const local = user.email?.split("@")[0];
  return local || "User";
}

export function AuthProvider({ children }: { children: ReactNode }) {
  const queryClient = useQueryClient();
  const [state, setState] = useState<AuthState>({ status: "initializing", user: null, token: null, termsAccepted: null });
  const loading = useRef(0);
  const userIdRef = useRef<string | null>(null);

  const loadUser = useCallback(async (session: AuthSession | null, ended?: SessionEnd): Promise<Me | null> => {
    const ticket = ++loading.current;
    if (!session) {
      userIdRef.current = null;
      setState({ status: "signed_out", user: null, token: null, termsAccepted: null, sessionExpired: ended === "expired" });
      return null;
    }
    const { ApiError, api, getSession, logout: signOut } = await apiClient();
    try {
      const me = await api.get<Me>("/auth/me");
      if (ticket !== loading.current) return me;
      userIdRef.current = me.id;
      setState({
        status: "authenticated",
        user: me,
        token: getSession()?.access_token ?? session.access_token,
        termsAccepted: me.terms_accepted,
      });
      return me;
    } catch (error) {
      if (ticket !== loading.current) return null;
      // Spec section 4: on profile-load failure the user and token are cleared (terms count as accepted).
      // Only when the server refused: a request cut off (the page navigating away, a dropped
      // connection) says nothing about the sign-in, and signing out then lost it for the next page.
      console.error("Could not load your profile", error);
      userIdRef.current = null;
      if (error instanceof ApiError && error.status > 0) await signOut();
      setState({ status: "signed_out", user: null, token: null, termsAccepted: true });
      return null;
    }
  }, []);

  useEffect(() => {
    let unmounted = false;
    let stopFollowing: (() => void) | undefined;
    void apiClient().then(({ initSession, onSessionChange }) => {
      if (unmounted) return;
      let heard = false;
      stopFollowing = onSessionChange((session, ended) => {
        heard = true;
        if (!session) {
          queryClient.clear();
          void loadUser(null, ended);
          return;
        }
        if (session.user.id !== userIdRef.current) {
          // A different user signed in (here or in another tab): start from a clean cache.
          if (userIdRef.current) queryClient.clear();
          setState((s) => ({ ...s, status: "initializing", termsAccepted: null }));
          void loadUser(session);
          return;
        }
        // Same user, new access token (refresh here or in another tab).
        setState((s) => ({ ...s, token: session.access_token }));
      });
      // After a reload the session is in the refresh cookie only: the status stays "initializing" until it is taken up.
      // Taking it up (or finding it expired) is a change the listener has loaded already; finding none is not.
      void initSession().then((session) => {
        if (!unmounted && !heard) void loadUser(session);
      });
    });
    return () => {
      unmounted = true;
      stopFollowing?.();
    };
  }, [loadUser, queryClient]);

  const reloadUser = useCallback(async () => loadUser((await apiClient()).getSession()), [loadUser]);
  const logout = useCallback(async () => {
    await (await apiClient()).logout();
    queryClient.clear();
  }, [queryClient]);

  const value = useMemo(() => ({ ...state, reloadUser, logout }), [state, reloadUser, logout]);
  return <AuthContext.Provider value={value}>{children}</AuthContext.Provider>;
}

export function useAuth(): AuthContextValue {
  const value = useContext(AuthContext);
  if (!value) throw new Error("useAuth outside AuthProvider");
  return value;
}

/** For tests: a fixed auth state without calls. */
export function StaticAuthProvider({ value, children }: { value: AuthState; children: ReactNode }) {
  const full = useMemo<AuthContextValue>(() => ({ ...value, reloadUser: async () => value.user, logout: async () => undefined }), [value]);
  return <AuthContext.Provider value={full}>{children}</AuthContext.Provider>;
}
