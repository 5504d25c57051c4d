import { Fragment, useState } from "react";
import { queryOptions, useQuery } from "@tanstack/react-query";
import Alert from "@mui/material/Alert";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import Table from "@mui/material/Table";
import TableBody from "@mui/material/TableBody";
import TableCell from "@mui/material/TableCell";
import TableHead from "@mui/material/TableHead";
import TableRow from "@mui/material/TableRow";
import Typography from "@mui/material/Typography";
import { monthText, type EarningsBookingReply, type ExpertEarningsReply, type ExpertMonthEarningsReply } from "@booking/contracts";
import { api } from "../shared/api-client.ts";
import type { Booking } from "../shared/api-types.ts";
import { LoadingScreen } from "../shared/guard.tsx";
import { localMoment, viewerLocale } from "../shared/local-time.ts";
import { useDashboardSubject } from "../shared/dashboard-subject.ts";
import { BOOKINGS_KEY } from "../shared/query-client.ts";
import { useExpertBookings } from "./dashboard-queries.ts";

// The expert's earnings as the API counts them (the earnings read model): months with sessions,
// net of refunds owed, and a month's bookings on demand. `who` is "me", or the expert's id when an
// admin opens the dashboard. Under the bookings key, so a booking's change refreshes them too.

const earningsPath = (who: string) => (who === "me" ? "/experts/me/earnings" : `/experts/${encodeURIComponent(who)}/earnings`);

const earningsQuery = (who: string) =>
  queryOptions({
    queryKey: [...BOOKINGS_KEY, "earnings", who],
    queryFn: ({ signal }) => api.get<ExpertEarningsReply>(earningsPath(who), { signal }),
    staleTime: 0,
  });

const monthQuery = (who: string, month: string) =>
  queryOptions({
    queryKey: [...BOOKINGS_KEY, "earnings", who, month],
    queryFn: ({ signal }) => api.get<ExpertMonthEarningsReply>(`${earningsPath(who)}/${month}`, { signal }),
    staleTime: 0,
  });

/** Cents as the dashboard shows money: $1,234.50. */
const dollars = (cents: number) => `$${(cents / 100).toLocaleString("en-US", { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;

/** Refunds as a deduction, or a dash when there are none. */
const deducted = (cents: number) => (cents > 0 ? `−${dollars(cents)}` : "—");

const monthLabel = (month: string) => monthText(month, viewerLocale());

/** Paid but not yet accepted: the money is held, and goes back if the expert declines. */
const awaitingAcceptance = (b: Booking) =>
  b.paid && (b.status === "pending" || b.status === "more_info_requested" || b.status === "time_proposed");

/** Paid requests the expert has still to accept: shown apart, not in the earnings. */
export function pendingPayments(bookings: Booking[]): { requests: number; total: number } {
  const waiting = bookings.filter(awaitingAcceptance);
  return { requests: waiting.length, total: waiting.reduce((sum, b) => sum + b.price, 0) };
}

const REFUND_STATE: Record<EarningsBookingReply["refund_state"], string> = { none: "", pending: "Refund pending", refunded: "Refunded" };

/** A table's header: text columns, then money and counts aligned right. */
function Head({ left, right }: { left: string[]; right: string[] }) {
  return (
    <TableHead>
      <TableRow>
        {left.map((c) => (
          <TableCell key={c}>{c}</TableCell>
        ))}
        {right.map((c) => (
          <TableCell key={c} align="right">
            {c}
          </TableCell>
        ))}
      </TableRow>
    </TableHead>
  );
}

function MonthBookings({ who, month }: { who: string; month: string }) {
  const detail = useQuery(monthQuery(who, month));
  if (detail.isPending) return <Typography variant="body2">Loading the month's bookings…</Typography>;
  if (detail.isError) return <Alert severity="error">This month's bookings could not be loaded.</Alert>;
  return (
    <Table size="small" aria-label={`Bookings in ${monthLabel(month)}`}>
      <Head left={["Session", "Date"]} right={["Paid", "Refunds", "Net"]} />
      <TableBody>
        {detail.data.bookings.map((b) => (
          <TableRow key={b.booking_id}>
            <TableCell>
              {b.session_title}
              {b.status === "cancelled" && " (cancelled)"}
            </TableCell>
            <TableCell>{localMoment(b.scheduled_time)}</TableCell>
            <TableCell align="right">{dollars(b.gross_cents)}</TableCell>
            <TableCell align="right">
              {deducted(b.refunds_cents)} {REFUND_STATE[b.refund_state]}
            </TableCell>
            <TableCell align="right">{dollars(b.net_cents)}</TableCell>
          </TableRow>
        ))}
      </TableBody>
    </Table>
  );
}

export function PaymentsTab() {
  const { who } = useDashboardSubject();
  const earnings = useQuery(earningsQuery(who));
  const bookings = useExpertBookings(who);
  const [open, setOpen] = useState<string | null>(null);
  if (earnings.isPending) return <LoadingScreen />;
  if (earnings.isError) return <Alert severity="error">Your payments could not be loaded.</Alert>;
  const { months, totals } = earnings.data;
  const pending = bookings.data ? pendingPayments(bookings.data) : { requests: 0, total: 0 };
  return (
    <Box sx={{ maxWidth: 720 }}>
      {pending.requests > 0 && (
        <Alert severity="info" sx={{ mb: 2 }} data-testid="pending-payments">
          Awaiting your acceptance: {pending.requests} paid {pending.requests === 1 ? "request" : "requests"}, ${pending.total.toFixed(2)}.
          It counts once you accept; declining refunds the creator.
        </Alert>
      )}
      {months.length === 0 ? (
        <Typography>Payments for your sessions will appear here.</Typography>
      ) : (
        <Table aria-label="Your payments by month">
          <Head left={["Month"]} right={["Sessions", "Refunds", "Total"]} />
          <TableBody>
            {months.map((m) => (
              <Fragment key={m.month}>
                <TableRow>
                  <TableCell>
                    <Button size="small" onClick={() => setOpen(open === m.month ? null : m.month)} aria-expanded={open === m.month}>
                      {monthLabel(m.month)}
                    </Button>
                  </TableCell>
                  <TableCell align="right">{m.sessions}</TableCell>
                  <TableCell align="right">{deducted(m.refunds_cents)}</TableCell>
                  <TableCell align="right">{dollars(m.net_cents)}</TableCell>
                </TableRow>
                {open === m.month && (
                  <TableRow>
                    <TableCell colSpan={4}>
                      <MonthBookings who={who} month={m.month} />
                    </TableCell>
                  </TableRow>
                )}
              </Fragment>
            ))}
            <TableRow>
              <TableCell sx={{ fontWeight: 700 }}>Total</TableCell>
              <TableCell align="right">{totals.sessions}</TableCell>
              <TableCell align="right">{deducted(totals.refunds_cents)}</TableCell>
              <TableCell align="right" sx={{ fontWeight: 700 }} data-testid="earnings-total">
                {dollars(totals.net_cents)}
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
          Withdrawals are not available yet.
        </Typography>
      </Box>
    </Box>
  );
}
