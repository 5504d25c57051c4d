import { useEffect, useRef, useState } from "react";
import { useNavigate, useSearchParams } from "react-router-dom";
import Alert from "@mui/material/Alert";
import Typography from "@mui/material/Typography";
import { errorCatalogue } from "@booking/contracts";
import { returnPathOf } from "@booking/contracts";
import { errorMessage, verifyEmail } from "../shared/api-client.ts";
import type { AuthUser } from "../shared/api-types.ts";
import { useAuth } from "../shared/auth.tsx";
import { useDocumentTitle } from "../shared/document-title.ts";
import { homeOf, LoadingScreen } from "../shared/guard.tsx";
import { CardPage } from "../shared/layout.tsx";
import { NewVerificationLinkForm } from "./verification-mail.tsx";

export const EMAIL_CONFIRMED = "Your email is confirmed.";

/** Where a newly confirmed user goes: where the link says (the session a creator chose), else creators to the experts, experts to their dashboard. */
export function afterConfirming(user: Pick<AuthUser, "id" | "role">, next: string | null): string {
  return next ?? (user.role === "creator" ? "/search" : homeOf(user));
}

type Outcome = { state: "verifying" } | { state: "verified"; user: AuthUser } | { state: "failed"; message: string };

/**
 * The verification mail's link (/verify-email?token=…[&next=…]): the token is sent once, with the
 * destination the API signed into it (an altered one makes the link invalid), the user is signed
 * in and sent on (through the terms first, as every new account is); a link that no longer works
 * says so in the catalogue's words and offers a new one, going to the same destination.
 */
export function VerifyEmailPage() {
  useDocumentTitle("Confirm Your Email");
  const [search] = useSearchParams();
  const token = search.get("token") ?? "";
  // Off-site destinations are dropped before asking: the API then reads the link as one without.
  const next = returnPathOf(search.get("next"));
  const auth = useAuth();
  const navigate = useNavigate();
  const [outcome, setOutcome] = useState<Outcome>(
    token ? { state: "verifying" } : { state: "failed", message: errorCatalogue.email_link_invalid.message },
  );
  // A link works once: a second POST (React's development double effects) would be refused.
  const sent = useRef<string | null>(null);

  useEffect(() => {
    if (!token || sent.current === token) return;
    sent.current = token;
    verifyEmail(token, next).then(
      (session) => setOutcome({ state: "verified", user: session.user }),
      (error: unknown) => setOutcome({ state: "failed", message: errorMessage(error) }),
    );
  }, [token, next]);

  // On once the profile of the new session is loaded: it says whether the terms are accepted yet.
  const ready =
    outcome.state === "verified" && auth.status === "authenticated" && auth.user?.id === outcome.user.id && auth.termsAccepted !== null;
  useEffect(() => {
    if (!ready || !auth.user) return;
    const to = afterConfirming(auth.user, next);
    if (auth.termsAccepted) navigate(to, { replace: true, state: { notice: EMAIL_CONFIRMED } });
    else navigate("/confirm-terms", { replace: true, state: { from: to, notice: EMAIL_CONFIRMED } });
  }, [ready, auth.user, auth.termsAccepted, navigate, next]);

  return (
    <CardPage title="Confirm Your Email" width={480}>
      {outcome.state === "failed" ? (
        <>
          <Alert severity="error" role="alert">
            {outcome.message}
          </Alert>
          <Typography>Enter your email and we will send you a new link.</Typography>
          <NewVerificationLinkForm next={next} />
        </>
      ) : (
        <LoadingScreen label={outcome.state === "verified" ? `${EMAIL_CONFIRMED} Signing you in...` : "Confirming your email..."} />
      )}
    </CardPage>
  );
}
