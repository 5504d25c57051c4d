import { DataTable, FunctionField, List, ReferenceField, SelectArrayInput, TextField } from "react-admin";
import { TransferState, type AdminTransferReply } from "@booking/contracts";
import { DateTimeField } from "../fields/date-time-field.tsx";
import { listExporter } from "../layout/list-exporter.ts";
import { CurrencyMoneyField } from "../ledger/currency-money.tsx";
import { lastFailure, MovementStatusField } from "./movement-status.tsx";

// GET /admin/transfers (issue 29.3): every released booking's share and its transfer to the
// expert's account (id = the booking's id): waiting, failed (why, tries, next try) or sent.

export type Transfer = AdminTransferReply;

export const transferStatusLabels = {
  none: { label: "Nothing to transfer", color: "default" },
  pending: { label: "Waiting", color: "warning" },
  failed: { label: "Failed", color: "error" },
  sent: { label: "Sent", color: "success" },
} as const satisfies Record<(typeof TransferState.options)[number], unknown>;

const choices = TransferState.options.map((id) => ({ id, name: transferStatusLabels[id].label }));
const filters = [<SelectArrayInput key="status" source="status" label="Status" choices={choices} alwaysOn />];

const Column = DataTable.Col<Transfer>;

export function TransferList() {
  return (
    <List filters={filters} sort={{ field: "released_at", order: "DESC" }} perPage={25} title="Transfers" exporter={listExporter}>
      <DataTable bulkActionButtons={false} rowClick={false}>
        <Column source="released_at" label="Released">
          <DateTimeField source="released_at" />
        </Column>
        <Column source="booking_id" label="Booking" disableSort>
          <ReferenceField source="booking_id" reference="bookings" link="show" />
        </Column>
        <Column source="expert_id" label="Expert">
          <ReferenceField source="expert_id" reference="payout-accounts" link="show" />
        </Column>
        <Column source="share_cents" label="Expert's share" align="right">
          <CurrencyMoneyField source="share_cents" />
        </Column>
        <Column source="transferred_cents" label="Transferred" align="right" disableSort>
          <CurrencyMoneyField source="transferred_cents" />
        </Column>
        <Column source="reversed_cents" label="Reversed" align="right" disableSort>
          <CurrencyMoneyField source="reversed_cents" />
        </Column>
        <Column label="Reversal owed" align="right" disableSort>
          <FunctionField<Transfer>
            render={(t) =>
              t.reversal_owed_cents === 0 ? (
                "—"
              ) : (
                <>
                  <CurrencyMoneyField source="reversal_owed_cents" />
                  {t.reversal_error ? ` (failing: ${t.reversal_error})` : " (waiting)"}
                </>
              )
            }
          />
        </Column>
        <Column source="status" label="Status">
          <MovementStatusField labels={transferStatusLabels} kind="transfer" />
        </Column>
        <Column source="attempts" label="Attempts" align="right" />
        <Column label="Last failure / next try" disableSort>
          <FunctionField<Transfer> render={(t) => lastFailure(t, ["sent", "none"])} />
        </Column>
        <Column source="transfer_id" label="Provider's transfer" disableSort>
          <TextField source="transfer_id" emptyText="—" />
        </Column>
      </DataTable>
    </List>
  );
}
