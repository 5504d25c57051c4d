import { useState } from "react";
import { useNavigate } from "react-router-dom";
import type { PayoutAccountReply } from "@booking/contracts";
import Alert from "@mui/material/Alert";
import AlertTitle from "@mui/material/AlertTitle";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import Typography from "@mui/material/Typography";
import { errorMessage } from "../shared/api-client.ts";
import { openOnboarding, startOnboarding } from "./payout-queries.ts";

// The expert's payout account (issue 29.2): connected before the first payout, not before
// publishing. None: connect it; incomplete: finish connecting it; enabled: connected. An admin's
// hold is said with its reason.

const CONNECT = {
  none: {
    action: "Connect your payout account",
    text: "Connect a payout account to receive your earnings. You can publish sessions before you do.",
  },
  incomplete: {
    action: "Finish connecting your payout account",
    text: "Your payout account is not ready yet: finish connecting it to receive payouts.",
  },
} as const;

export function PayoutAccountPanel({ account }: { account: PayoutAccountReply }) {
  const navigate = useNavigate();
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const connect = async () => {
    setBusy(true);
    setFailure(null);
    try {
      await startOnboarding((url) => openOnboarding(url, navigate));
    } catch (e) {
      setFailure(errorMessage(e));
      setBusy(false);
    }
  };
  return (
    <Box component="section" aria-labelledby="payout-account-title" sx={{ display: "grid", gap: 1 }}>
      <Typography variant="h6" component="h2" id="payout-account-title">
        Payout account
      </Typography>
      {account.status === "enabled" ? (
        <Alert severity="success" role="note" data-testid="payout-account-status">
          Payout account connected
        </Alert>
      ) : (
        <Box sx={{ display: "grid", gap: 1, justifyItems: "start" }}>
          <Typography variant="body2" id="payout-account-text" data-testid="payout-account-status">
            {CONNECT[account.status].text}
          </Typography>
          <Button variant="contained" onClick={connect} disabled={busy} aria-describedby="payout-account-text">
            {CONNECT[account.status].action}
          </Button>
        </Box>
      )}
      {account.held && (
        <Alert severity="warning" role="note" data-testid="payouts-held">
          <AlertTitle>Your payouts are on hold</AlertTitle>
          {account.held_reason && <>Reason: {account.held_reason.replace(/[.\s]+$/, "")}. </>}
          Your earnings stay in your balance meanwhile; contact support to find out more.
        </Alert>
      )}
      {failure && (
        <Alert severity="error" role="alert">
          {failure}
        </Alert>
      )}
    </Box>
  );
}
