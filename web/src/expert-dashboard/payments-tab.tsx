import { DateTime } from "luxon";
import Alert from "@mui/material/Alert";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import Table from "@mui/material/Table";
import TableBody from "@mui/material/TableBody";
import TableCell from "@mui/material/TableCell";
import TableHead from "@mui/material/TableHead";
import TableRow from "@mui/material/TableRow";
import Typography from "@mui/material/Typography";
import type { Booking } from "../shared/api-types.ts";
import { LoadingScreen } from "../shared/guard.tsx";
import { useDashboardSubject } from "../shared/dashboard-subject.ts";
import { useExpertBookings } from "./dashboard-queries.ts";

export type MonthEarnings = { month: string; label: string; sessions: number; total: number };

/** Paid and accepted: the expert has earned it. A cancellation refunds in full, so cancelled bookings earn nothing. */
const earned = (b: Booking) => b.paid && (b.status === "confirmed" || b.status === "completed");

/** Paid but not yet accepted: the money is held, and goes back if the expert declines. */
const awaitingAcceptance = (b: Booking) => b.paid && (b.status === "pending" || b.status === "more_info_requested" || b.status === "time_proposed");

/**
 * The API has no earnings endpoint for experts (the earnings read model is admin-only and counts
 * every payment when it arrives), so the tab adds up the expert's accepted, paid bookings by the
 * month of the session. Each counts at its price: a second payment for it is owed back (refund_due).
 */
export function earningsByMonth(bookings: Booking[]): MonthEarnings[] {
  const months = new Map<string, MonthEarnings>();
  for (const b of bookings) {
    if (!earned(b)) continue;
    const at = DateTime.fromISO(b.scheduled_time);
    const key = at.toFormat("yyyy-MM");
    const row = months.get(key) ?? { month: key, label: at.toFormat("LLLL yyyy"), sessions: 0, total: 0 };
    row.sessions += 1;
    row.total += b.price;
    months.set(key, row);
  }
  return [...months.values()].sort((a, b) => b.month.localeCompare(a.month));
}

/** Paid requests the expert has still to accept: shown apart, not in the earnings. */
export function pendingPayments(bookings: Booking[]): { requests: number; total: number } {
  const waiting = bookings.filter(awaitingAcceptance);
  return { requests: waiting.length, total: waiting.reduce((sum, b) => sum + b.price, 0) };
}

export function PaymentsTab() {
  const bookings = useExpertBookings(useDashboardSubject().who);
  if (bookings.isPending) return <LoadingScreen />;
  if (bookings.isError) return <Alert severity="error">Your payments could not be loaded.</Alert>;
  const rows = earningsByMonth(bookings.data);
  const total = rows.reduce((sum, r) => sum + r.total, 0);
  const pending = pendingPayments(bookings.data);
  return (
    <Box sx={{ maxWidth: 640 }}>
      {pending.requests > 0 && (
        <Alert severity="info" sx={{ mb: 2 }} data-testid="pending-payments">
          Awaiting your acceptance: {pending.requests} paid {pending.requests === 1 ? "request" : "requests"}, ${pending.total.toFixed(2)}. It counts once you accept; declining refunds the creator.
        </Alert>
      )}
      {rows.length === 0 ? (
        <Typography>Payments for your sessions will appear here.</Typography>
      ) : (
        <Table aria-label="Your payments by month">
          <TableHead>
            <TableRow>
              <TableCell>Month</TableCell>
              <TableCell align="right">Sessions</TableCell>
              <TableCell align="right">Total</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {rows.map((r) => (
              <TableRow key={r.month}>
                <TableCell>{r.label}</TableCell>
                <TableCell align="right">{r.sessions}</TableCell>
                <TableCell align="right">${r.total.toFixed(2)}</TableCell>
              </TableRow>
            ))}
            <TableRow>
              <TableCell sx={{ fontWeight: 700 }}>Total</TableCell>
              <TableCell />
              <TableCell align="right" sx={{ fontWeight: 700 }} data-testid="earnings-total">
                ${total.toFixed(2)}
              </TableCell>
            </TableRow>
          </TableBody>
        </Table>
      )}
      <Box sx={{ mt: 3 }}>
        <Button variant="contained" disabled>
          Withdraw Earnings
        </Button>
        <Typography variant="body2" color="text.secondary" sx={{ mt: 1 }}>
          Payouts are not available yet.
        </Typography>
      </Box>
    </Box>
  );
}
