import { DataTable, FunctionField, List, ReferenceField, SelectArrayInput, TextField } from "react-admin";
import { PayoutStatus, type AdminPayoutReply } from "@booking/contracts";
import { DateTimeField } from "../fields/date-time-field.tsx";
import { listExporter } from "../layout/list-exporter.ts";
import { CurrencyMoneyField } from "../ledger/currency-money.tsx";
import { lastFailure, MovementStatusField } from "./movement-status.tsx";

// GET /admin/payouts (issue 29.4): every payout from an expert's account to their bank (id = its
// key), who asked for it, the provider's id, and whether it is on its way, paid or failed (and why).

export type Payout = AdminPayoutReply;

export const payoutStatusLabels = {
  requested: { label: "Requested", color: "info" },
  in_transit: { label: "In transit", color: "warning" },
  paid: { label: "Paid", color: "success" },
  failed: { label: "Failed", color: "error" },
} as const satisfies Record<(typeof PayoutStatus.options)[number], unknown>;

export const payoutByLabels: Record<string, string> = { expert: "The expert", schedule: "Weekly schedule", admin: "An admin" };

const choices = PayoutStatus.options.map((id) => ({ id, name: payoutStatusLabels[id].label }));
const filters = [<SelectArrayInput key="status" source="status" label="Status" choices={choices} alwaysOn />];

const Column = DataTable.Col<Payout>;

export function PayoutList() {
  return (
    <List filters={filters} sort={{ field: "requested_at", order: "DESC" }} perPage={25} title="Payouts" exporter={listExporter}>
      <DataTable bulkActionButtons={false} rowClick={false}>
        <Column source="requested_at" label="Requested">
          <DateTimeField source="requested_at" />
        </Column>
        <Column source="expert_id" label="Expert">
          <ReferenceField source="expert_id" reference="payout-accounts" link="show" />
        </Column>
        <Column source="amount_cents" label="Amount" align="right">
          <CurrencyMoneyField source="amount_cents" />
        </Column>
        <Column label="Asked by" disableSort>
          <FunctionField<Payout> render={(p) => payoutByLabels[p.by] ?? String(p.by ?? "—")} />
        </Column>
        <Column source="status" label="Status">
          <MovementStatusField labels={payoutStatusLabels} kind="payout" />
        </Column>
        <Column source="attempts" label="Attempts" align="right" />
        <Column label="Last failure / next try" disableSort>
          <FunctionField<Payout> render={(p) => lastFailure(p, ["paid"])} />
        </Column>
        <Column source="payout_id" label="Provider's payout" disableSort>
          <TextField source="payout_id" emptyText="—" />
        </Column>
        <Column source="paid_at" label="Paid">
          <DateTimeField source="paid_at" />
        </Column>
      </DataTable>
    </List>
  );
}
