import { useState } from "react";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import {
  CLEARING_PERIOD_DAYS,
  PAYOUT_MINIMUM_CENTS,
  type Currency,
  type ExpertBalanceReply,
  type PayoutAccountReply,
  type PayoutReply,
} from "@booking/contracts";
import Alert from "@mui/material/Alert";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import Table from "@mui/material/Table";
import TableBody from "@mui/material/TableBody";
import TableCell from "@mui/material/TableCell";
import TableHead from "@mui/material/TableHead";
import TableRow from "@mui/material/TableRow";
import Typography from "@mui/material/Typography";
import { api, errorMessage } from "../shared/api-client.ts";
import { moneyText } from "../shared/money.ts";
import { PAYOUTS_KEY } from "./payout-queries.ts";

// The expert's balance per currency (issue 29.4) and their payout on request: pending (not yet
// released), available, in transit, paid out. Amounts of different currencies are never added.

type Balance = ExpertBalanceReply["balances"][number];

/** Why a payout cannot be asked for now, or null when it can. */
export function payoutRefusal(balance: Balance, account: PayoutAccountReply): string | null {
  if (account.status === "none") return "Connect your payout account to request a payout.";
  if (account.status === "incomplete") return "Finish connecting your payout account to request a payout.";
  if (account.held) return "Your payouts are on hold.";
  const minimum = PAYOUT_MINIMUM_CENTS[balance.currency];
  if (balance.available_cents < minimum)
    return `You can request a payout once ${moneyText(minimum, balance.currency, { short: true })} is available.`;
  // Released but not yet transferred to the payout account: the reactor does it within minutes.
  if (balance.payable_cents < minimum)
    return "Your money is on its way to your payout account. You can request a payout once it has arrived.";
  return null;
}

function BalanceRow({ balance, account, onPaid }: { balance: Balance; account: PayoutAccountReply; onPaid: (p: PayoutReply) => void }) {
  const queryClient = useQueryClient();
  const [failure, setFailure] = useState<string | null>(null);
  const request = useMutation({
    mutationFn: (currency: Currency) => api.post<PayoutReply>("/experts/me/payouts", { currency }),
    onMutate: () => setFailure(null),
    onSuccess: (payout) => onPaid(payout),
    onError: (e) => setFailure(errorMessage(e)),
    onSettled: () => queryClient.invalidateQueries({ queryKey: PAYOUTS_KEY }),
  });
  const money = (cents: number) => moneyText(cents, balance.currency);
  const refusal = payoutRefusal(balance, account);
  const hintId = `payout-hint-${balance.currency}`;
  return (
    <TableRow>
      <TableCell component="th" scope="row">
        {balance.currency}
      </TableCell>
      <TableCell align="right">{money(balance.pending_cents)}</TableCell>
      <TableCell align="right" sx={{ fontWeight: 700 }}>
        {money(balance.available_cents)}
      </TableCell>
      <TableCell align="right">{money(balance.in_transit_cents)}</TableCell>
      <TableCell align="right">{money(balance.paid_out_cents)}</TableCell>
      <TableCell>
        <Button
          size="small"
          variant="contained"
          disabled={refusal !== null || request.isPending}
          onClick={() => request.mutate(balance.currency)}
          aria-label={`Request payout of ${money(balance.payable_cents)}`}
          aria-describedby={refusal ? hintId : undefined}
        >
          Request payout
        </Button>
        {refusal && (
          <Typography id={hintId} variant="caption" color="text.secondary" component="p">
            {refusal}
          </Typography>
        )}
        {failure && (
          <Typography role="alert" color="error" variant="body2">
            {failure}
          </Typography>
        )}
      </TableCell>
    </TableRow>
  );
}

export function BalancePanel({ balances, account }: { balances: Balance[]; account: PayoutAccountReply }) {
  const [requested, setRequested] = useState<PayoutReply | null>(null);
  return (
    <Box component="section" aria-labelledby="balance-title" sx={{ display: "grid", gap: 1 }}>
      <Typography variant="h6" component="h2" id="balance-title">
        Balance
      </Typography>
      {requested && (
        <Alert severity="success" role="status" onClose={() => setRequested(null)}>
          Payout of {moneyText(requested.amount_cents, requested.currency)} requested. You can follow it in your payouts below.
        </Alert>
      )}
      {balances.length === 0 ? (
        <Typography variant="body2">Your balance will appear here once a creator has paid for one of your sessions.</Typography>
      ) : (
        <Table size="small" aria-label="Your balance by currency">
          <TableHead>
            <TableRow>
              <TableCell>Currency</TableCell>
              <TableCell align="right">Pending</TableCell>
              <TableCell align="right">Available</TableCell>
              <TableCell align="right">In transit</TableCell>
              <TableCell align="right">Paid out</TableCell>
              <TableCell>
                <span className="visually-hidden">Payout</span>
              </TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {balances.map((b) => (
              <BalanceRow key={b.currency} balance={b} account={account} onPaid={setRequested} />
            ))}
          </TableBody>
        </Table>
      )}
      <Typography variant="body2" color="text.secondary" data-testid="balance-explained">
        Pending: your share of paid sessions, not yet released. A session's money is released {CLEARING_PERIOD_DAYS} days after the session
        is completed, so that no-shows and refunds can be settled first. Available: released, yours to pay out. In transit: payouts on their
        way to your bank. Everything available is paid out weekly; you can also request a payout now.
      </Typography>
    </Box>
  );
}
