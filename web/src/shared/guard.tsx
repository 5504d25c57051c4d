import type { ReactNode } from "react";
import { Navigate, useLocation, useParams, useSearchParams } from "react-router-dom";
import Box from "@mui/material/Box";
import CircularProgress from "@mui/material/CircularProgress";
import Typography from "@mui/material/Typography";
import type { Role } from "./api-types.ts";
import { useAuth, type AuthState } from "./auth.tsx";
import { useFlags, type Flags } from "./flags.ts";

// Route guards in the order of spec section 4: preview, loading, sign-in, admin bypass,
// expert-only mode, role, terms, ownership.

export type GuardRule = {
  /** Visitors are sent to /login (default); when false they see the page (it explains itself). */
  signIn?: boolean;
  /** Roles allowed; others go to /. */
  roles?: Role[];
  /** The route parameter that must equal the signed-in user's id. */
  ownIdParam?: string;
  /** The admin/expert gate, which applies while expert-only mode is on. */
  adminExpertGate?: boolean;
  /** The terms screen itself does not require accepted terms. */
  skipTerms?: boolean;
};

export type GuardVerdict = { kind: "render" } | { kind: "loading" } | { kind: "redirect"; to: string };

/** Paths an expert may reach in expert-only mode. */
export function expertMayReach(pathname: string): boolean {
  return (
    pathname === "/" ||
    pathname === "/login" ||
    pathname === "/confirm-terms" ||
    pathname.startsWith("/expert-dashboard/") ||
    pathname === "/expert-profile" ||
    pathname.startsWith("/expert-profile/") ||
    pathname === "/edit-session" ||
    pathname.startsWith("/edit-session/") ||
    pathname === "/release-notes" ||
    // The payouts pages (issue 29.2): the test onboarding and where Stripe's onboarding comes back to.
    pathname === "/payouts" ||
    pathname.startsWith("/payouts/")
  );
}

export function decideGuard(input: {
  auth: AuthState;
  preview: boolean;
  pathname: string;
  params: Record<string, string | undefined>;
  flags: Pick<Flags, "expertOnlyMode">;
  rule: GuardRule;
}): GuardVerdict {
  const { auth, preview, pathname, params, flags, rule } = input;
  if (preview) return { kind: "render" };
  if (auth.status === "initializing") return { kind: "loading" };
  const gate = flags.expertOnlyMode && !!rule.adminExpertGate;
  if (auth.status !== "authenticated" || !auth.user) {
    return rule.signIn === false && !gate ? { kind: "render" } : { kind: "redirect", to: "/login" };
  }
  const user = auth.user;
  if (user.role === "admin") return { kind: "render" };
  if (flags.expertOnlyMode) {
    if (gate) return { kind: "redirect", to: "/" };
    if (user.role === "expert" && !expertMayReach(pathname)) return { kind: "redirect", to: "/" };
  }
  if (rule.roles && !rule.roles.includes(user.role)) return { kind: "redirect", to: "/" };
  if (!rule.skipTerms) {
    if (auth.termsAccepted === null) return { kind: "loading" };
    if (!auth.termsAccepted) return { kind: "redirect", to: "/confirm-terms" };
  }
  if (rule.ownIdParam && params[rule.ownIdParam] !== user.id) return { kind: "redirect", to: "/" };
  return { kind: "render" };
}

export function LoadingScreen({ label = "Loading..." }: { label?: string }) {
  return (
    <Box role="status" aria-live="polite" sx={{ display: "flex", alignItems: "center", justifyContent: "center", gap: 2, py: 8 }}>
      <CircularProgress size={24} aria-hidden="true" />
      <Typography>{label}</Typography>
    </Box>
  );
}

export function Guard({ rule = {}, children }: { rule?: GuardRule; children: ReactNode }) {
  const auth = useAuth();
  const flags = useFlags();
  const location = useLocation();
  const params = useParams();
  const [search] = useSearchParams();
  const verdict = decideGuard({ auth, preview: search.get("preview") === "true", pathname: location.pathname, params, flags, rule });
  if (verdict.kind === "loading") return <LoadingScreen />;
  if (verdict.kind === "redirect") {
    const from = `${location.pathname}${location.search}`;
    // The login page says why when the session expired, and both pages send the user back here.
    const state =
      verdict.to === "/login"
        ? { from, ...(auth.sessionExpired && { expired: true }) }
        : verdict.to === "/confirm-terms"
          ? { from }
          : undefined;
    return <Navigate to={verdict.to} replace state={state} />;
  }
  return <>{children}</>;
}

/** Where a user lands after signing in or accepting the terms. */
export function homeOf(user: { id: string; role: Role }): string {
  if (user.role === "expert") return `/expert-dashboard/${user.id}`;
  if (user.role === "creator") return `/creator-dashboard/${user.id}`;
  return "/search";
}
