import { Fragment, useState } from "react";
import { infiniteQueryOptions, queryOptions, useInfiniteQuery, useQuery } from "@tanstack/react-query";
import Alert from "@mui/material/Alert";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import Table from "@mui/material/Table";
import TableBody from "@mui/material/TableBody";
import TableCell from "@mui/material/TableCell";
import TableFooter from "@mui/material/TableFooter";
import TableHead from "@mui/material/TableHead";
import TableRow from "@mui/material/TableRow";
import Typography from "@mui/material/Typography";
import {
  monthText,
  type Currency,
  type EarningsBookingReply,
  type EarningsTotalsReply,
  type ExpertEarningsReply,
  type ExpertMonthEarningsReply,
} from "@booking/contracts";
import { api } from "../shared/api-client.ts";
import type { Booking } from "../shared/api-types.ts";
import { LoadingScreen } from "../shared/guard.tsx";
import { localMoment } from "../shared/local-time.ts";
import { viewerLocale } from "../shared/viewer-locale.ts";
import { useDashboardSubject } from "../shared/dashboard-subject.ts";
import { currencyOf, deductionText, moneyText } from "../shared/money.ts";
import { BOOKINGS_KEY } from "../shared/query-client.ts";
import { PayoutsList, PayoutsSummary } from "../payouts/payouts-section.tsx";
import { StatementsSection } from "../payouts/statement-downloads.tsx";
import { useExpertBookings } from "./dashboard-queries.ts";

// The expert's earnings as the API counts them (the earnings read model): months with sessions,
// net of refunds owed, and a month's bookings on demand with the fee and the expert's share. `who`
// is "me", or the expert's id when an admin opens the dashboard. Under the bookings key, so a
// booking's change refreshes them too. The expert's own tab adds their payout account, balance,
// payouts and monthly statements (issue 29); an admin sees those in the console.

const earningsPath = (who: string) => (who === "me" ? "/experts/me/earnings" : `/experts/${encodeURIComponent(who)}/earnings`);

const earningsQuery = (who: string) =>
  queryOptions({
    queryKey: [...BOOKINGS_KEY, "earnings", who],
    queryFn: ({ signal }) => api.get<ExpertEarningsReply>(earningsPath(who), { signal }),
    staleTime: 0,
  });

/** A month's bookings, a page at a time (issue 34.5): the first page, then those its `Link: rel="next"` header names. */
const monthQuery = (who: string, month: string) =>
  infiniteQueryOptions({
    queryKey: [...BOOKINGS_KEY, "earnings", who, month, "pages"],
    queryFn: ({ pageParam, signal }) => api.getPage<ExpertMonthEarningsReply>(pageParam, { signal }),
    initialPageParam: `${earningsPath(who)}/${month}`,
    getNextPageParam: (last) => last.next,
    select: (data) => ({ bookings: data.pages.flatMap((page) => page.items.bookings), more: data.pages.at(-1)?.next != null }),
    staleTime: 0,
  });

/** Money columns of the month rows, the totals and a month's bookings: net of refunds, then the platform's fee and the expert's share. */
const MONEY_COLUMNS = ["Refunds", "Net", "Platform fee", "Your share"];

/**
 * A month's or the totals' money cells, in their own currency. `total`: the test id of the totals' net,
 * "earnings-total" for the API's headline totals (the latest earning's currency), "earnings-total-EUR" for another.
 */
function MoneyCells({ row, total }: { row: EarningsTotalsReply; total?: string }) {
  const money = (cents: number) => moneyText(cents, row.currency);
  return (
    <>
      <TableCell align="right">{deductionText(row.refunds_cents, row.currency)}</TableCell>
      <TableCell align="right" data-testid={total}>
        {money(row.net_cents)}
      </TableCell>
      <TableCell align="right">{money(row.fee_cents)}</TableCell>
      <TableCell align="right" sx={total ? { fontWeight: 700 } : undefined}>
        {money(row.share_cents)}
      </TableCell>
    </>
  );
}

const monthLabel = (month: string) => monthText(month, viewerLocale());

/** Paid but not yet accepted: the money is held, and goes back if the expert declines. */
const awaitingAcceptance = (b: Booking) =>
  b.paid && (b.status === "pending" || b.status === "more_info_requested" || b.status === "time_proposed");

/** Paid requests the expert has still to accept: shown apart, not in the earnings; their total per currency, never added across. */
export function pendingPayments(bookings: Booking[]): { requests: number; totals: string[] } {
  const waiting = bookings.filter(awaitingAcceptance);
  const cents = new Map<Currency, number>();
  for (const b of waiting) cents.set(currencyOf(b), (cents.get(currencyOf(b)) ?? 0) + Math.round(b.price * 100));
  return { requests: waiting.length, totals: [...cents].map(([currency, total]) => moneyText(total, currency)) };
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

function MonthBookings({ who, month, currency }: { who: string; month: string; currency: Currency }) {
  const detail = useInfiniteQuery(monthQuery(who, month));
  if (detail.isPending) return <Typography variant="body2">Loading the month's bookings…</Typography>;
  if (detail.isLoadingError) return <Alert severity="error">This month's bookings could not be loaded.</Alert>;
  const money = (cents: number) => moneyText(cents, currency);
  return (
    <Table size="small" aria-label={`Bookings in ${monthLabel(month)}`}>
      <Head left={["Session", "Date"]} right={["Paid", ...MONEY_COLUMNS]} />
      <TableBody>
        {detail.data.bookings
          .filter((b) => b.currency === currency)
          .map((b) => (
            <TableRow key={b.booking_id}>
              <TableCell>
                {b.session_title}
                {b.status === "cancelled" && " (cancelled)"}
              </TableCell>
              <TableCell>{localMoment(b.scheduled_time)}</TableCell>
              <TableCell align="right">{money(b.gross_cents)}</TableCell>
              <TableCell align="right">
                {deductionText(b.refunds_cents, currency)} {REFUND_STATE[b.refund_state]}
              </TableCell>
              <TableCell align="right">{money(b.net_cents)}</TableCell>
              <TableCell align="right">{money(b.fee_cents)}</TableCell>
              <TableCell align="right">{money(b.share_cents)}</TableCell>
            </TableRow>
          ))}
      </TableBody>
      {detail.data.more && (
        <TableFooter>
          <TableRow>
            <TableCell colSpan={2 + 1 + MONEY_COLUMNS.length} align="center">
              {detail.isFetchNextPageError && <Alert severity="error">More of this month's bookings could not be loaded.</Alert>}
              <Button size="small" disabled={detail.isFetchingNextPage} onClick={() => void detail.fetchNextPage()}>
                {detail.isFetchingNextPage ? "Loading more bookings…" : "Show more bookings"}
              </Button>
            </TableCell>
          </TableRow>
        </TableFooter>
      )}
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
  const { months, totals, totals_by_currency } = earnings.data;
  const totalRows = totals_by_currency.length > 0 ? totals_by_currency : [totals];
  // Said only when the expert earns in more than one currency: "March 2026 (EUR)".
  const named = (label: string, currency: Currency) => (totalRows.length > 1 ? `${label} (${currency})` : label);
  // Waiting requests are still to happen, so on the first page of bookings: the pages loaded hold them all.
  const pending = bookings.data ? pendingPayments(bookings.data.bookings) : { requests: 0, totals: [] };
  const own = who === "me";
  return (
    <Box sx={{ maxWidth: 880, display: "grid", gap: 3 }}>
      {own && <PayoutsSummary />}
      {pending.requests > 0 && (
        <Alert severity="info" data-testid="pending-payments">
          Awaiting your acceptance: {pending.requests} paid {pending.requests === 1 ? "request" : "requests"}, {pending.totals.join(" + ")}.
          It counts once you accept; declining refunds the creator.
        </Alert>
      )}
      <Typography variant="h6" component="h2">
        Earnings
      </Typography>
      {months.length === 0 ? (
        <Typography>Payments for your sessions will appear here.</Typography>
      ) : (
        <Table aria-label="Your payments by month">
          <Head left={["Month"]} right={["Sessions", ...MONEY_COLUMNS]} />
          <TableBody>
            {months.map((m) => {
              const key = `${m.month}-${m.currency}`;
              return (
                <Fragment key={key}>
                  <TableRow>
                    <TableCell>
                      <Button size="small" onClick={() => setOpen(open === key ? null : key)} aria-expanded={open === key}>
                        {named(monthLabel(m.month), m.currency)}
                      </Button>
                    </TableCell>
                    <TableCell align="right">{m.sessions}</TableCell>
                    <MoneyCells row={m} />
                  </TableRow>
                  {open === key && (
                    <TableRow>
                      <TableCell colSpan={2 + MONEY_COLUMNS.length}>
                        <MonthBookings who={who} month={m.month} currency={m.currency} />
                      </TableCell>
                    </TableRow>
                  )}
                </Fragment>
              );
            })}
            {totalRows.map((t) => (
              <TableRow key={t.currency}>
                <TableCell sx={{ fontWeight: 700 }}>{named("Total", t.currency)}</TableCell>
                <TableCell align="right">{t.sessions}</TableCell>
                <MoneyCells row={t} total={t.currency === totals.currency ? "earnings-total" : `earnings-total-${t.currency}`} />
              </TableRow>
            ))}
          </TableBody>
        </Table>
      )}
      {own ? (
        <>
          <PayoutsList />
          <StatementsSection />
        </>
      ) : (
        <Typography variant="body2" color="text.secondary">
          This expert's payout account, balance and payouts are in the console.
        </Typography>
      )}
    </Box>
  );
}
