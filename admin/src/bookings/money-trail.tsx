import { Alert, Box, Table, TableBody, TableCell, TableHead, TableRow, Typography } from "@mui/material";
import { useGetList, useRecordContext } from "react-admin";
import type { Currency, MoneyTrailEntryReply } from "@booking/contracts";
import { consoleMoment } from "../fields/date-time-field.tsx";
import { formatMoney, isCurrency } from "../ledger/currency-money.tsx";
import { accountParts } from "../ledger/trial-balance-record.ts";
import type { Booking } from "./booking-record.ts";

// A booking's money trail (issue 29.5): every ledger entry posted for it, in the log's order
// (GET /admin/bookings/{id}/money-trail): payment, fee, refunds, release, transfer, reversal. A
// per-expert account is the booking's expert's: its kind is shown, the whole name kept in data-account.

/** Every entry of one booking fits: the API sends at most 1000 per page. */
const ALL_ENTRIES = 1000;

/** The path of a booking's money trail, as a resource of the data provider. */
export const moneyTrailPath = (bookingId: string) => `bookings/${encodeURIComponent(bookingId)}/money-trail`;

/** Rule: per currency, the trail's debits equal its credits (each event's postings balance). */
export function trailUnbalanced(entries: readonly MoneyTrailEntryReply[]): Currency[] {
  const net = new Map<Currency, number>();
  for (const e of entries) if (isCurrency(e.currency)) net.set(e.currency, (net.get(e.currency) ?? 0) + e.debit_cents - e.credit_cents);
  return [...net].filter(([, cents]) => cents !== 0).map(([currency]) => currency);
}

/** Narrow cells, so the five columns fit beside the booking's details at a laptop's width. */
const COMPACT = { "& td, & th": { px: 1 }, "& code": { fontSize: "0.8125rem" } } as const;

const amount = (cents: number, currency: unknown) => (cents && isCurrency(currency) ? formatMoney(cents, currency) : "");

function TrailTable({ entries }: { entries: MoneyTrailEntryReply[] }) {
  return (
    <Table size="small" aria-label="Money trail" data-testid="money-trail" sx={COMPACT}>
      <TableHead>
        <TableRow>
          <TableCell>When</TableCell>
          <TableCell>Event</TableCell>
          <TableCell>Account</TableCell>
          <TableCell align="right">Debit</TableCell>
          <TableCell align="right">Credit</TableCell>
        </TableRow>
      </TableHead>
      <TableBody>
        {entries.map((e, i) => {
          const firstOfEvent = entries[i - 1]?.event_id !== e.event_id;
          const { kind, expertId } = accountParts(String(e.account ?? ""));
          return (
            <TableRow key={e.id} data-event-type={e.event_type} data-account={e.account}>
              <TableCell>{firstOfEvent && e.at ? consoleMoment(e.at) : ""}</TableCell>
              <TableCell>{firstOfEvent ? <code>{e.event_type}</code> : ""}</TableCell>
              <TableCell title={expertId ? `${kind} of expert ${expertId}` : undefined}>
                <code>{kind}</code>
              </TableCell>
              <TableCell align="right" sx={{ whiteSpace: "nowrap" }}>
                {amount(e.debit_cents, e.currency)}
              </TableCell>
              <TableCell align="right" sx={{ whiteSpace: "nowrap" }}>
                {amount(e.credit_cents, e.currency)}
              </TableCell>
            </TableRow>
          );
        })}
      </TableBody>
    </Table>
  );
}

/** The booking's ledger entries, debits and credits in the booking's currency; a warning if they do not balance. */
export function MoneyTrail() {
  const booking = useRecordContext<Booking>();
  const id = String(booking?.id ?? "");
  const { data, error, isPending } = useGetList<MoneyTrailEntryReply>(
    moneyTrailPath(id),
    { pagination: { page: 1, perPage: ALL_ENTRIES }, sort: { field: "position", order: "ASC" } },
    { enabled: id !== "", retry: false },
  );
  const entries = data ?? [];
  const unbalanced = trailUnbalanced(entries);
  return (
    <Box component="section" aria-labelledby="money-trail-title" sx={{ mb: 3 }}>
      <Typography variant="h6" component="h2" id="money-trail-title" sx={{ mb: 1 }}>
        Money trail
      </Typography>
      {error ? <Alert severity="error">The money trail could not be read: {error.message}</Alert> : null}
      {!isPending && !error && entries.length === 0 ? <Typography variant="body2">No money has moved for this booking.</Typography> : null}
      {unbalanced.length > 0 ? (
        <Alert severity="error" sx={{ mb: 1 }}>
          The trail does not balance in {unbalanced.join(", ")}: its debits and credits differ.
        </Alert>
      ) : null}
      {entries.length > 0 ? (
        <Box sx={{ overflowX: "auto" }}>
          <TrailTable entries={entries} />
        </Box>
      ) : null}
    </Box>
  );
}
