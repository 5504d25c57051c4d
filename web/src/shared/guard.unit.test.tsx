import { screen } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import type { AuthState } from "./auth.tsx";
import { decideGuard, expertMayReach, Guard, type GuardRule } from "./guard.tsx";
import { renderScreen, signedInAs, signedOut } from "../../test/screen-harness.tsx";
import { AppRoutes } from "../routes.tsx";

const decide = (
  auth: AuthState,
  rule: GuardRule,
  o: { preview?: boolean; pathname?: string; params?: Record<string, string>; expertOnlyMode?: boolean } = {},
) =>
  decideGuard({
    auth,
    rule,
    preview: !!o.preview,
    pathname: o.pathname ?? "/x",
    params: o.params ?? {},
    flags: { expertOnlyMode: !!o.expertOnlyMode },
  });

const initializing: AuthState = { status: "initializing", user: null, token: null, termsAccepted: null };
const creator = signedInAs("creator");
const expert = signedInAs("expert");
const admin = signedInAs("admin");
const newExpert = signedInAs("expert", {}, false);

describe("guard order (spec section 4)", () => {
  it("1. preview lets anyone through, even before auth is known", () => {
    expect(decide(initializing, { roles: ["expert"] }, { preview: true })).toEqual({ kind: "render" });
    expect(decide(signedOut, { ownIdParam: "id" }, { preview: true, params: { id: "x" } })).toEqual({ kind: "render" });
  });
  it("2. waits while initializing", () => {
    expect(decide(initializing, {})).toEqual({ kind: "loading" });
  });
  it("3. visitors go to /login (unless the page explains itself)", () => {
    expect(decide(signedOut, {})).toEqual({ kind: "redirect", to: "/login" });
    expect(decide(signedOut, { signIn: false })).toEqual({ kind: "render" });
  });
  it("4. admins bypass role, terms and ownership", () => {
    expect(decide({ ...admin, termsAccepted: false }, { roles: ["creator"], ownIdParam: "id" }, { params: { id: "someone" } })).toEqual({
      kind: "render",
    });
  });
  it("5. expert-only mode: experts reach only their paths; the admin/expert gate sends others to /", () => {
    expect(decide(expert, {}, { expertOnlyMode: true, pathname: "/search" })).toEqual({ kind: "redirect", to: "/" });
    expect(decide(expert, {}, { expertOnlyMode: true, pathname: "/expert-dashboard/expert-1" })).toEqual({ kind: "render" });
    expect(decide(creator, { adminExpertGate: true }, { expertOnlyMode: true })).toEqual({ kind: "redirect", to: "/" });
    expect(decide(signedOut, { adminExpertGate: true, signIn: false }, { expertOnlyMode: true })).toEqual({
      kind: "redirect",
      to: "/login",
    });
    expect(decide(admin, { adminExpertGate: true }, { expertOnlyMode: true })).toEqual({ kind: "render" });
    expect(decide(creator, { adminExpertGate: true })).toEqual({ kind: "render" }); // the gate is off outside expert-only mode
    for (const path of [
      "/",
      "/login",
      "/confirm-terms",
      "/expert-dashboard/1/slots",
      "/expert-profile/a",
      "/edit-session",
      "/edit-session/s",
      "/release-notes",
    ])
      expect(expertMayReach(path)).toBe(true);
    for (const path of ["/search", "/about", "/book-session/s", "/creator-dashboard/1", "/manage-booking/b"])
      expect(expertMayReach(path)).toBe(false);
  });
  it("6. the wrong role goes to /", () => {
    expect(decide(creator, { roles: ["expert"] })).toEqual({ kind: "redirect", to: "/" });
  });
  it("7. terms not accepted go to /confirm-terms, after the role check", () => {
    expect(decide(newExpert, { roles: ["expert"] })).toEqual({ kind: "redirect", to: "/confirm-terms" });
    expect(decide(newExpert, { roles: ["creator"] })).toEqual({ kind: "redirect", to: "/" });
    expect(decide(newExpert, { skipTerms: true })).toEqual({ kind: "render" });
  });
  it("8. ownership: the route id must be the user's", () => {
    expect(decide(expert, { ownIdParam: "id" }, { params: { id: "someone-else" } })).toEqual({ kind: "redirect", to: "/" });
    expect(decide(expert, { ownIdParam: "id" }, { params: { id: "expert-1" } })).toEqual({ kind: "render" });
  });
});

describe("Guard", () => {
  it("shows 'Loading...' while auth initializes", () => {
    renderScreen(
      <Guard>
        <p>secret</p>
      </Guard>,
      { auth: initializing },
    );
    expect(screen.getByRole("status")).toHaveTextContent("Loading...");
    expect(screen.queryByText("secret")).not.toBeInTheDocument();
  });
  it("redirects in the browser", () => {
    renderScreen(
      <Guard rule={{ roles: ["expert"], ownIdParam: "id" }}>
        <p>dashboard</p>
      </Guard>,
      { auth: expert, route: "/expert-dashboard/other", path: "/expert-dashboard/:id" },
    );
    expect(screen.getByTestId("location")).toHaveTextContent(/^\/$/);
  });
  it("renders for the owner", () => {
    renderScreen(
      <Guard rule={{ roles: ["expert"], ownIdParam: "id" }}>
        <p>dashboard</p>
      </Guard>,
      { auth: expert, route: "/expert-dashboard/expert-1", path: "/expert-dashboard/:id" },
    );
    expect(screen.getByText("dashboard")).toBeInTheDocument();
  });
});

describe("unknown paths", () => {
  it("show 'Page not found', or go to / in expert-only mode", () => {
    renderScreen(<AppRoutes />, { route: "/no/such/page", path: "/*" });
    expect(screen.getByRole("heading", { name: "Page not found" })).toBeInTheDocument();
  });
  it("go to / in expert-only mode", () => {
    renderScreen(<AppRoutes />, { route: "/no/such/page", path: "/*", flags: { expertOnlyMode: true } });
    expect(screen.getByTestId("location")).toHaveTextContent(/^\/$/);
  });
});
