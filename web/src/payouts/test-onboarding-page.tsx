import { useState } from "react";
import { useNavigate } from "react-router-dom";
import { useQueryClient } from "@tanstack/react-query";
import type { PayoutAccountReply } from "@booking/contracts";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import Typography from "@mui/material/Typography";
import { api, errorMessage } from "../shared/api-client.ts";
import { useAuth } from "../shared/auth.tsx";
import { useDocumentTitle } from "../shared/document-title.ts";
import { CardPage } from "../shared/layout.tsx";
import { FormRefusal } from "../shared/form-page.tsx";
import { PAYOUTS_KEY } from "./payout-queries.ts";

// /payouts/test-onboarding (issue 29.2): with the test payment provider, connecting a payout
// account comes here instead of Stripe's onboarding. The expert finishes it, or leaves it
// incomplete to see what that looks like, and goes back to their Payments tab.

export const paymentsTabOf = (userId: string) => `/expert-dashboard/${userId}/payments`;

export function TestOnboardingPage() {
  useDocumentTitle("Test Payout Onboarding");
  const { user } = useAuth();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const finish = async (complete: boolean) => {
    setBusy(true);
    setFailure(null);
    try {
      const account = await api.post<PayoutAccountReply>("/experts/me/payout-account/test-onboarding", { complete });
      queryClient.setQueryData([...PAYOUTS_KEY, "account"], account);
      void queryClient.invalidateQueries({ queryKey: PAYOUTS_KEY });
      const notice =
        account.status === "enabled"
          ? "Your payout account is connected."
          : "Your payout account is not ready yet: you can finish connecting it later.";
      navigate(paymentsTabOf(user?.id ?? ""), { state: { notice } });
    } catch (e) {
      setFailure(errorMessage(e));
      setBusy(false);
    }
  };
  return (
    <CardPage title="Test Payout Onboarding" width={560}>
      <Typography>
        This page stands in for Stripe's onboarding while the product runs with its test payment provider. No bank details are asked for and
        no money moves.
      </Typography>
      <Typography variant="body2" color="text.secondary">
        Complete it to receive payouts to a test account, or leave it incomplete to see what an unfinished account looks like: you can come
        back and finish it from your Payments tab.
      </Typography>
      <Box sx={{ display: "flex", gap: 2, flexWrap: "wrap" }}>
        <Button variant="contained" onClick={() => void finish(true)} disabled={busy}>
          Complete onboarding
        </Button>
        <Button variant="outlined" onClick={() => void finish(false)} disabled={busy}>
          Leave it incomplete
        </Button>
      </Box>
      <FormRefusal message={failure} />
    </CardPage>
  );
}
