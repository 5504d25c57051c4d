import { useEffect, useRef, useState } from "react";
import { Navigate, useNavigate, useSearchParams } from "react-router-dom";
import Alert from "@mui/material/Alert";
import { errorMessage } from "../shared/api-client.ts";
import { useAuth } from "../shared/auth.tsx";
import { LoadingScreen } from "../shared/guard.tsx";
import { Page } from "../shared/layout.tsx";
import { openOnboarding, startOnboarding } from "./payout-queries.ts";
import { paymentsTabOf } from "./test-onboarding-page.tsx";

// /payouts: where the provider's onboarding sends the expert back (issue 29.2). `onboarding=done`:
// to their Payments tab, which shows the account as the provider now reports it. `onboarding=refresh`
// (the onboarding link ran out): a new link, and on to it.

export function PayoutsReturnPage() {
  const [search] = useSearchParams();
  const { user } = useAuth();
  const refresh = search.get("onboarding") === "refresh";
  if (!refresh) return <Navigate to={paymentsTabOf(user?.id ?? "")} replace />;
  return <NewOnboardingLink />;
}

function NewOnboardingLink() {
  const navigate = useNavigate();
  const [failure, setFailure] = useState<string | null>(null);
  const asked = useRef(false);
  useEffect(() => {
    if (asked.current) return;
    asked.current = true;
    startOnboarding((url) => openOnboarding(url, (to) => navigate(to, { replace: true }))).catch((e: unknown) =>
      setFailure(errorMessage(e)),
    );
  }, [navigate]);
  return (
    <Page>
      {failure ? (
        <Alert severity="error" role="alert">
          {failure}
        </Alert>
      ) : (
        <LoadingScreen label="Opening your payout account's onboarding..." />
      )}
    </Page>
  );
}
