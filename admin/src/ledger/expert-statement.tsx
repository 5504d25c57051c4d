import DownloadIcon from "@mui/icons-material/Download";
import {
  Alert,
  Box,
  CircularProgress,
  Stack,
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableRow,
  TextField,
  Typography,
} from "@mui/material";
import { useMutation, useQuery } from "@tanstack/react-query";
import { useId, useState } from "react";
import { Button, useDataProvider, useNotify } from "react-admin";
import type { ExpertStatementCurrencyReply } from "@booking/contracts";
import type { ConsoleDataProvider } from "../data-provider.ts";
import { saveFile } from "../layout/export-csv-button.tsx";
import { formatMoney } from "./currency-money.tsx";

// An expert's statement for a month (issue 29.5), from the ledger: what the platform owed them at
// the start, what their sessions earned, the fee, refunds after release, payouts, what it owes at the
// end; and what moved to and from their connected account. One column per currency, never added.

type Line = { key: keyof ExpertStatementCurrencyReply; label: string; sign: 1 | -1 };

const OWED: Line[] = [
  { key: "opening_cents", label: "Owed at the start of the month", sign: 1 },
  { key: "earnings_cents", label: "Earnings (kept of payments released)", sign: 1 },
  { key: "fee_cents", label: "Platform fee", sign: -1 },
  { key: "refunds_cents", label: "Refunds after release", sign: -1 },
  { key: "payouts_cents", label: "Payouts", sign: -1 },
  { key: "closing_cents", label: "Owed at the end of the month", sign: 1 },
];
const CONNECTED: Line[] = [
  { key: "transfers_cents", label: "Transferred to their account", sign: 1 },
  { key: "reversals_cents", label: "Transfers reversed", sign: -1 },
];

/** The month now, as `YYYY-MM` (UTC, like the statement). */
export const thisMonth = (now = new Date()) => now.toISOString().slice(0, 7);

/** Rule: a statement adds up when closing = opening + earnings − fee − refunds − payouts. */
export const statementAddsUp = (s: ExpertStatementCurrencyReply) =>
  s.closing_cents === s.opening_cents + s.earnings_cents - s.fee_cents - s.refunds_cents - s.payouts_cents;

const signed = (cents: number, line: Line, currency: ExpertStatementCurrencyReply["currency"]) =>
  line.sign < 0 && cents !== 0 ? `− ${formatMoney(cents, currency)}` : formatMoney(cents, currency);

function StatementTable({ currencies, month }: { currencies: ExpertStatementCurrencyReply[]; month: string }) {
  const rows = (lines: Line[]) =>
    lines.map((line) => (
      <TableRow key={line.key} data-line={line.key}>
        <TableCell component="th" scope="row">
          {line.label}
        </TableCell>
        {currencies.map((c) => (
          <TableCell key={c.currency} align="right" data-currency={c.currency}>
            {signed(c[line.key] as number, line, c.currency)}
          </TableCell>
        ))}
      </TableRow>
    ));
  return (
    <Table size="small" aria-label={`Statement for ${month}`} data-testid="expert-statement">
      <TableHead>
        <TableRow>
          <TableCell>{month}</TableCell>
          {currencies.map((c) => (
            <TableCell key={c.currency} align="right">
              {c.currency}
            </TableCell>
          ))}
        </TableRow>
      </TableHead>
      <TableBody>
        {rows(OWED)}
        <TableRow>
          <TableCell colSpan={currencies.length + 1}>
            <Typography variant="subtitle2" component="h3">
              Their connected account
            </Typography>
          </TableCell>
        </TableRow>
        {rows(CONNECTED)}
      </TableBody>
    </Table>
  );
}

/** The month's statement as the expert downloads it (GET /admin/payout-accounts/{id}/statements/{month}.pdf or .csv). */
function StatementDownloads({ expertId, month, disabled }: { expertId: string; month: string; disabled: boolean }) {
  const dataProvider = useDataProvider<ConsoleDataProvider>();
  const notify = useNotify();
  const download = useMutation({
    mutationFn: async (format: "pdf" | "csv") =>
      saveFile(await dataProvider.expertStatementFile(expertId, month, format), `statement-${month}.${format}`),
    onError: (error) => notify(error instanceof Error ? error.message : "The statement could not be downloaded.", { type: "error" }),
  });
  return (
    <>
      {(["pdf", "csv"] as const).map((format) => (
        <Button
          key={format}
          label={`Download ${format.toUpperCase()}`}
          onClick={() => download.mutate(format)}
          disabled={disabled || download.isPending}
        >
          <DownloadIcon />
        </Button>
      ))}
    </>
  );
}

/** The statement of one expert, for the month the admin picks (this month at first). */
export function ExpertStatement({ expertId }: { expertId: string }) {
  const dataProvider = useDataProvider<ConsoleDataProvider>();
  const [month, setMonth] = useState(thisMonth());
  const monthId = useId();
  const valid = /^\d{4}-(0[1-9]|1[0-2])$/.test(month);
  const statement = useQuery({
    queryKey: ["expertStatement", expertId, month],
    queryFn: () => dataProvider.expertStatement(expertId, month),
    enabled: valid && expertId !== "",
    retry: false,
  });
  const currencies = statement.data?.currencies ?? [];
  const notAddingUp = currencies.filter((c) => !statementAddsUp(c)).map((c) => c.currency);
  return (
    <Box>
      <Typography variant="h6" component="h2" sx={{ mb: 1 }}>
        Statement
      </Typography>
      <Stack direction="row" spacing={1} sx={{ mb: 2, alignItems: "center" }}>
        <TextField
          id={monthId}
          type="month"
          label="Month"
          value={month}
          onChange={(e) => setMonth(e.target.value)}
          size="small"
          slotProps={{ inputLabel: { shrink: true } }}
        />
        <StatementDownloads expertId={expertId} month={month} disabled={!valid} />
      </Stack>
      {statement.isLoading ? <CircularProgress size={24} aria-label="Loading the statement" /> : null}
      {statement.error ? <Alert severity="error">{statement.error.message || "The statement could not be read."}</Alert> : null}
      {statement.data && currencies.length === 0 ? (
        <Typography variant="body2">No money moved for this expert in {month}.</Typography>
      ) : null}
      {notAddingUp.length > 0 ? (
        <Alert severity="error" sx={{ mb: 1 }}>
          The statement does not add up in {notAddingUp.join(", ")}: the closing amount is not the opening plus earnings less fee, refunds
          and payouts.
        </Alert>
      ) : null}
      {currencies.length > 0 ? <StatementTable currencies={currencies} month={statement.data?.month ?? month} /> : null}
    </Box>
  );
}
