import { configure, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it, vi } from "vitest";
import { AppRoutes } from "../routes.tsx";
import type { AuthSession, ExpertDetail, Session } from "../shared/api-types.ts";
import { fakeApi, renderScreen, signedInAs, signedOut } from "../../test/screen-harness.tsx";
import { ConfirmTermsPage } from "./confirm-terms-page.tsx";
import { LoginPage } from "./login-page.tsx";
import { SignUpPage } from "./sign-up-page.tsx";
import { VerifyEmailPage } from "./verify-email-page.tsx";

// Issue 27.4: a creator who chose a session and had to log in or sign up first ends on that
// session, not on /search: through login, sign-up, the verification link (which carries the
// destination, signed by the API) and the terms. Only paths on this site are destinations.

afterEach(() => vi.unstubAllGlobals());
// Pages under AppRoutes load lazily: slow on a busy machine, so waits are long (they end as soon as the page shows).
configure({ asyncUtilTimeout: 10_000 });
vi.setConfig({ testTimeout: 60_000 });

// Partial: the session's shape grows with other work; the profile page reads these fields.
const deckReview = {
  id: "s-1",
  expert_id: "e1",
  title: "Deck review",
  description: "A look at your deck.",
  price: 150,
  length_minutes: 60,
  prep_question_1: "Goal?",
  prep_question_2: null,
  prep_question_3: null,
  prep_questions: ["Goal?"],
  session_details: "",
  ideal_for: [],
  status: "published",
  expert: { id: "e1", name: "Maya Lind", first_name: "Maya" },
} satisfies Partial<Session>;
const profile = {
  id: "e1",
  user_id: "e1",
  slug: "maya-lind-e1",
  first_name: "Maya",
  last_name: "Lind",
  title: "Brand partnerships advisor",
  bio: "Deals.",
  tags: ["Brand deals"],
  profile_image: null,
  published: true,
  verified: true,
  reviews: [],
  prev_clients: [],
} satisfies Omit<ExpertDetail, "sessions">;
const maya = { ...profile, sessions: [deckReview] };

const sessionOf = (id: string, role: "creator" | "expert"): AuthSession => ({
  access_token: "a.b.c",
  expires_in: 900,
  expires_at: Math.floor(Date.now() / 1000) + 900,
  token_type: "bearer",
  user: { id, email: `${id}@example.com`, role, first_name: "Cora" },
});
const signedUp = {
  status: 201,
  body: {
    user: { id: "u-1", email: "cora@example.com", role: "creator", first_name: "Cora" },
    confirmation_sent_at: "2026-03-01T10:00:00.000Z",
  },
};
const newCreator = signedInAs("creator", { id: "u-1" });

async function logIn() {
  await userEvent.type(screen.getByLabelText(/Email/), "cora@example.com");
  await userEvent.type(screen.getByLabelText(/Password/), "cora-password-1");
  await userEvent.click(screen.getByRole("button", { name: "Login" }));
}

describe("a visitor who chose a session", () => {
  it("is sent to a login page named for creators too, and back to the session after logging in", async () => {
    fakeApi({
      "GET /experts/maya-lind-e1": { status: 200, body: maya },
      "POST /auth/login": { status: 200, body: sessionOf("creator-1", "creator") },
    });
    renderScreen(<AppRoutes />, { route: "/expert-profile/maya-lind-e1", path: "/*", auth: signedOut });
    await userEvent.click(await screen.findByRole("link", { name: "Login as a creator to book" }));
    expect(await screen.findByRole("heading", { level: 1, name: "Login" })).toBeInTheDocument();
    expect(screen.getByText("For experts, and for creators booking a session.")).toBeInTheDocument();
    expect(screen.queryByText("Expert Login")).toBeNull();
    await logIn();
    await waitFor(() => expect(screen.getByTestId("location")).toHaveTextContent(/^\/book-session\/s-1$/));
  });

  it("keeps the session through sign-up, with 'A creator' chosen, and asks the API to put it in the mail's link", async () => {
    const calls = fakeApi({ "POST /auth/signup": signedUp, "POST /auth/verify/resend": { status: 204 } });
    renderScreen(<AppRoutes />, { route: "/login?next=%2Fbook-session%2Fs-1", path: "/*", auth: signedOut });
    await userEvent.click(await screen.findByRole("link", { name: "Create your account" }));
    expect(await screen.findByRole("heading", { name: "Create Your Account" })).toBeInTheDocument();
    expect(screen.getByLabelText("A creator")).toBeChecked();
    await userEvent.type(screen.getByLabelText(/First Name/), "Cora");
    await userEvent.type(screen.getByLabelText(/Last Name/), "Quinn");
    await userEvent.type(screen.getByLabelText(/Email/), "cora@example.com");
    await userEvent.type(screen.getByLabelText(/^Password/), "cora-password-1");
    await userEvent.click(screen.getByRole("button", { name: "Create Account" }));
    expect(await screen.findByRole("heading", { name: "Check your inbox" })).toBeInTheDocument();
    expect(calls.find((c) => c.path === "/auth/signup")?.body).toMatchObject({ role: "creator", next: "/book-session/s-1" });
    await userEvent.click(screen.getByRole("button", { name: "Send again" }));
    await screen.findByRole("status");
    expect(calls.at(-1)).toEqual({
      method: "POST",
      path: "/auth/verify/resend",
      body: { email: "cora@example.com", next: "/book-session/s-1" },
    });
  });

  it("is asked for a role when the destination is not a booking, unless the link hints a creator", async () => {
    renderScreen(<SignUpPage />, { route: "/signup?next=%2Fhelp", path: "/signup" });
    expect(screen.getByLabelText("A creator")).not.toBeChecked();
    expect(screen.getByLabelText("An expert")).not.toBeChecked();
  });

  it("has 'A creator' chosen from a role=creator hint", () => {
    renderScreen(<SignUpPage />, { route: "/signup?role=creator", path: "/signup" });
    expect(screen.getByLabelText("A creator")).toBeChecked();
  });
});

describe("the verification link's destination", () => {
  it("is posted with the token, and the new creator accepts the terms and lands on the session", async () => {
    const calls = fakeApi({
      "POST /auth/verify": { status: 200, body: sessionOf("u-1", "creator") },
      "GET /terms/latest": { status: 200, body: { version_id: "t-1" } },
      "POST /terms/accept": { status: 204 },
    });
    renderScreen(<VerifyEmailPage />, {
      route: "/verify-email?token=tok-1&next=%2Fbook-session%2Fs-1",
      path: "/verify-email",
      auth: signedInAs("creator", { id: "u-1" }, false),
      others: { "/confirm-terms": <ConfirmTermsPage /> },
    });
    expect(await screen.findByRole("heading", { name: "Terms and Conditions" })).toBeInTheDocument();
    expect(calls[0]).toEqual({ method: "POST", path: "/auth/verify", body: { token: "tok-1", next: "/book-session/s-1" } });
    await userEvent.click(screen.getByLabelText("I accept the Terms and Conditions"));
    await userEvent.click(screen.getByRole("button", { name: "Continue" }));
    await waitFor(() => expect(screen.getByTestId("location")).toHaveTextContent(/^\/book-session\/s-1$/));
  });

  it("sends a creator who accepted the terms already straight to the session", async () => {
    fakeApi({ "POST /auth/verify": { status: 200, body: sessionOf("u-1", "creator") } });
    renderScreen(<VerifyEmailPage />, {
      route: "/verify-email?token=tok-2&next=%2Fbook-session%2Fs-1",
      path: "/verify-email",
      auth: newCreator,
    });
    await waitFor(() => expect(screen.getByTestId("location")).toHaveTextContent(/^\/book-session\/s-1$/));
  });
});

describe("destinations off this site", () => {
  // The rule itself is tested in contracts/test/return-path.unit.test.ts; these check the pages apply it.
  const offSite = ["//evil.example/book-session/s-1", "/\\evil.example", "https://evil.example/"];

  it.each(offSite)("login ignores next=%j and goes home", async (next) => {
    fakeApi({ "POST /auth/login": { status: 200, body: sessionOf("creator-1", "creator") } });
    renderScreen(<LoginPage />, { route: `/login?next=${encodeURIComponent(next)}`, path: "/login" });
    await logIn();
    await waitFor(() => expect(screen.getByTestId("location")).toHaveTextContent(/^\/creator-dashboard\/creator-1$/));
  });

  it.each(offSite.slice(0, 1))("sign-up sends no next=%j to the API", async (next) => {
    const calls = fakeApi({ "POST /auth/signup": signedUp });
    renderScreen(<SignUpPage />, { route: `/signup?next=${encodeURIComponent(next)}`, path: "/signup" });
    const form = screen.getByRole("form", { name: "Create your account" });
    await userEvent.click(within(form).getByLabelText("A creator"));
    await userEvent.type(within(form).getByLabelText(/First Name/), "Cora");
    await userEvent.type(within(form).getByLabelText(/Last Name/), "Quinn");
    await userEvent.type(within(form).getByLabelText(/Email/), "cora@example.com");
    await userEvent.type(within(form).getByLabelText(/^Password/), "cora-password-1");
    await userEvent.click(within(form).getByRole("button", { name: "Create Account" }));
    await screen.findByRole("heading", { name: "Check your inbox" });
    expect(calls[0]!.body).not.toHaveProperty("next");
  });

  it("the verification page neither posts nor follows an off-site destination", async () => {
    const calls = fakeApi({ "POST /auth/verify": { status: 200, body: sessionOf("u-1", "creator") } });
    renderScreen(<VerifyEmailPage />, {
      route: "/verify-email?token=tok-3&next=%2F%2Fevil.example",
      path: "/verify-email",
      auth: newCreator,
    });
    await waitFor(() => expect(screen.getByTestId("location")).toHaveTextContent(/^\/search$/));
    expect(calls).toEqual([{ method: "POST", path: "/auth/verify", body: { token: "tok-3" } }]);
  });
});
