import type { PayoutReply } from "@booking/contracts";
import Box from "@mui/material/Box";
import Table from "@mui/material/Table";
import TableBody from "@mui/material/TableBody";
import TableCell from "@mui/material/TableCell";
import TableHead from "@mui/material/TableHead";
import TableRow from "@mui/material/TableRow";
import Typography from "@mui/material/Typography";
import { longDate } from "../shared/local-time.ts";
import { moneyText } from "../shared/money.ts";

// The expert's payouts, newest first (issue 29.4): amount, who asked, status and dates; a failed
// one says why (its money is available again).

const STATUS: Record<PayoutReply["status"], string> = {
  requested: "Requested",
  in_transit: "On its way",
  paid: "Paid",
  failed: "Failed",
};

const BY: Record<PayoutReply["by"], string> = { expert: "You", schedule: "Weekly payout", admin: "Support" };

const statusText = (p: PayoutReply) =>
  p.status === "failed" ? `Failed${p.failure_reason ? `: ${p.failure_reason}` : ""}. The money is available again.` : STATUS[p.status];

export function PayoutHistory({ payouts }: { payouts: PayoutReply[] }) {
  return (
    <Box component="section" aria-labelledby="payouts-title" sx={{ display: "grid", gap: 1 }}>
      <Typography variant="h6" component="h2" id="payouts-title">
        Payouts
      </Typography>
      {payouts.length === 0 ? (
        <Typography variant="body2">Your payouts will appear here.</Typography>
      ) : (
        <Table size="small" aria-label="Your payouts">
          <TableHead>
            <TableRow>
              <TableCell>Requested</TableCell>
              <TableCell>By</TableCell>
              <TableCell align="right">Amount</TableCell>
              <TableCell>Status</TableCell>
              <TableCell>Paid on</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {payouts.map((p) => (
              <TableRow key={p.payout_key}>
                <TableCell>{longDate(p.requested_at)}</TableCell>
                <TableCell>{BY[p.by]}</TableCell>
                <TableCell align="right">{moneyText(p.amount_cents, p.currency)}</TableCell>
                <TableCell>{statusText(p)}</TableCell>
                <TableCell>{p.paid_at ? longDate(p.paid_at) : "—"}</TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      )}
    </Box>
  );
}
