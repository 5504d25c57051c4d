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
import { useExpertBookings } from "./dashboard-queries.ts";

export type MonthEarnings = { month: string; label: string; sessions: number; total: number };

/**
 * The API has no earnings endpoint for experts (the earnings read model is admin-only), so the
 * tab adds up the expert's paid bookings, by the month of the session.
 */
export function earningsByMonth(bookings: Booking[]): MonthEarnings[] {
  const months = new Map<string, MonthEarnings>();
  for (const b of bookings) {
    if (!b.paid || b.status === "cancelled" || b.payment_state === "refund_due") continue;
    const at = DateTime.fromISO(b.scheduled_time);
    const key = at.toFormat("yyyy-MM");
    const row = months.get(key) ?? { month: key, label: at.toFormat("LLLL yyyy"), sessions: 0, total: 0 };
    row.sessions += 1;
    row.total += b.price;
    months.set(key, row);
  }
  return [...months.values()].sort((a, b) => b.month.localeCompare(a.month));
}

export function PaymentsTab() {
  const bookings = useExpertBookings();
  if (bookings.isPending) return <LoadingScreen />;
  if (bookings.isError) return <Alert severity="error">Your payments could not be loaded.</Alert>;
  const rows = earningsByMonth(bookings.data);
  const total = rows.reduce((sum, r) => sum + r.total, 0);
  return (
    <Box sx={{ maxWidth: 640 }}>
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
              <TableCell align="right" sx={{ fontWeight: 700 }}>
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
