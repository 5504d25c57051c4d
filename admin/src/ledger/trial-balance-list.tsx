import { Alert, Chip, type SxProps, Table, TableBody, TableCell, TableHead, TableRow, Typography } from "@mui/material";
import { DataTable, FunctionField, List, ReferenceField, SelectInput, useListContext, type Exporter } from "react-admin";
import { CURRENCIES } from "@booking/contracts";
import { listExporter } from "../layout/list-exporter.ts";
import { CurrencyMoneyField, formatMoney } from "./currency-money.tsx";
import { accountParts, totalsPerCurrency, unknownCurrencyRows, type CurrencyTotal, type TrialBalanceRow } from "./trial-balance-record.ts";

// The ledger's trial balance (issue 29.5): every account's debits, credits and balance per currency,
// and per currency whether the debits equal the credits. The API's path is /admin/ledger/trial-balance;
// it keeps one order (by currency and account, each currency's total last), so the columns do not sort.

export const TRIAL_BALANCE_API = "ledger/trial-balance";
/** Every account on one page: totals over a page would not be the ledger's (the API sends at most 1000 rows). */
const ALL_ACCOUNTS = 1000;

/** The console's exporter, the file named after the menu's resource rather than the API path. */
const exporter: Exporter = (records, fetchRelated, dataProvider) => listExporter(records, fetchRelated, dataProvider, "trial-balance");

const notBalanced = (t: CurrencyTotal) =>
  t.total_differs
    ? "NOT balanced (the API's total differs from its accounts)"
    : `NOT balanced (debits − credits = ${formatMoney(t.debit_cents - t.credit_cents, t.currency)})`;

/** Per currency: total debits, total credits, and "Balanced" or "NOT balanced"; nothing is added across currencies. */
export function TrialBalanceTotals() {
  const { data, total, isPending } = useListContext<TrialBalanceRow>();
  if (isPending || !data) return null;
  const totals = totalsPerCurrency(data);
  const unknown = unknownCurrencyRows(data);
  const partial = total !== undefined && total > data.length;
  return (
    <>
      {partial ? (
        <Alert severity="warning" sx={{ mb: 1 }}>
          The totals cover {data.length} of {total} accounts: the rest did not fit on one page.
        </Alert>
      ) : null}
      {unknown > 0 ? (
        <Alert severity="error" sx={{ mb: 1 }}>
          {unknown} {unknown === 1 ? "account has" : "accounts have"} no known currency and {unknown === 1 ? "is" : "are"} not in the
          totals.
        </Alert>
      ) : null}
      <Typography variant="h6" component="h2" sx={{ mt: 1, mx: 2 }}>
        Totals per currency
      </Typography>
      <Table size="small" aria-label="Totals per currency" data-testid="trial-balance-totals" sx={{ mb: 2 }}>
        <TableHead>
          <TableRow>
            <TableCell>Currency</TableCell>
            <TableCell align="right">Debits</TableCell>
            <TableCell align="right">Credits</TableCell>
            <TableCell align="right">Accounts</TableCell>
            <TableCell>Balanced</TableCell>
          </TableRow>
        </TableHead>
        <TableBody>
          {totals.length === 0 ? (
            <TableRow>
              <TableCell colSpan={5}>No postings yet.</TableCell>
            </TableRow>
          ) : null}
          {totals.map((t) => (
            <TableRow key={t.currency} data-testid={`total-${t.currency}`} data-balanced={t.balanced}>
              <TableCell>{t.currency}</TableCell>
              <TableCell align="right">{formatMoney(t.debit_cents, t.currency)}</TableCell>
              <TableCell align="right">{formatMoney(t.credit_cents, t.currency)}</TableCell>
              <TableCell align="right">{t.accounts}</TableCell>
              <TableCell>
                <Chip size="small" color={t.balanced ? "success" : "error"} label={t.balanced ? "Balanced" : notBalanced(t)} />
              </TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </>
  );
}

/** An account by name; a per-expert one (`expert_payable:{id}`) links to the expert. */
function AccountField(_props: { label?: string }) {
  return (
    <FunctionField<TrialBalanceRow>
      render={(row) => {
        if (row.kind === "total") return <strong>Total</strong>;
        const { kind, expertId } = accountParts(String(row.account ?? ""));
        if (!expertId) return <code>{kind}</code>;
        return (
          <span>
            <code>{kind}</code> ·{" "}
            <ReferenceField
              record={{ id: row.id, expert_id: expertId }}
              source="expert_id"
              reference="experts"
              link="show"
              emptyText={expertId}
            />
          </span>
        );
      }}
    />
  );
}

const Column = DataTable.Col<TrialBalanceRow>;
const currencyChoices = CURRENCIES.map((id) => ({ id, name: id }));
const filters = [<SelectInput key="currency" source="currency" label="Currency" choices={currencyChoices} alwaysOn />];
const totalRowSx = (row: TrialBalanceRow): SxProps => (row.kind === "total" ? { "& td": { fontWeight: 600 } } : {});

export function TrialBalanceList() {
  return (
    <List
      resource={TRIAL_BALANCE_API}
      filters={filters}
      sort={{ field: "account", order: "ASC" }}
      perPage={ALL_ACCOUNTS}
      pagination={false}
      title="Trial balance"
      exporter={exporter}
      empty={false}
    >
      <TrialBalanceTotals />
      <DataTable bulkActionButtons={false} rowClick={false} rowSx={totalRowSx}>
        <Column source="account" disableSort label="Account">
          <AccountField />
        </Column>
        <Column source="currency" disableSort label="Currency" />
        <Column source="debit_cents" disableSort label="Debits" align="right">
          <CurrencyMoneyField source="debit_cents" />
        </Column>
        <Column source="credit_cents" disableSort label="Credits" align="right">
          <CurrencyMoneyField source="credit_cents" />
        </Column>
        <Column source="balance_cents" disableSort label="Balance (+ debit, − credit)" align="right">
          <CurrencyMoneyField source="balance_cents" />
        </Column>
      </DataTable>
    </List>
  );
}
