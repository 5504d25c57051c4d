import { useQuery } from "@tanstack/react-query";
import Alert from "@mui/material/Alert";
import Box from "@mui/material/Box";
import Typography from "@mui/material/Typography";
import { BalancePanel } from "./balance-panel.tsx";
import { PayoutAccountPanel } from "./payout-account-panel.tsx";
import { PayoutHistory } from "./payout-history.tsx";
import { balanceQuery, payoutAccountQuery, payoutsQuery } from "./payout-queries.ts";

/** The payout account and the balance, above the earnings on the expert's Payments tab. */
export function PayoutsSummary() {
  const account = useQuery(payoutAccountQuery());
  const balance = useQuery(balanceQuery());
  if (account.isPending || balance.isPending) return <Typography variant="body2">Loading your payouts…</Typography>;
  if (account.isError || balance.isError) return <Alert severity="error">Your payout account and balance could not be loaded.</Alert>;
  return (
    <Box sx={{ display: "grid", gap: 3 }}>
      <PayoutAccountPanel account={account.data} />
      <BalancePanel balances={balance.data.balances} account={account.data} />
    </Box>
  );
}

/** The expert's payouts, below the earnings. */
export function PayoutsList() {
  const payouts = useQuery(payoutsQuery());
  if (payouts.isPending) return <Typography variant="body2">Loading your payouts…</Typography>;
  if (payouts.isError) return <Alert severity="error">Your payouts could not be loaded.</Alert>;
  return <PayoutHistory payouts={payouts.data.payouts} />;
}
