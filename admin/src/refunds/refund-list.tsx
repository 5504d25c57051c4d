import { DataTable, FunctionField, List, ReferenceField, SelectArrayInput, TextField } from "react-admin";
import { consoleMoment, DateTimeField } from "../fields/date-time-field.tsx";
import { MoneyField } from "../fields/money-field.tsx";
import { listExporter } from "../layout/list-exporter.ts";
import { refundStatusChoices, type Refund } from "./refund-record.ts";
import { RefundStatusField } from "./refund-status.tsx";

const refundFilters = [<SelectArrayInput key="status" source="status" label="Status" choices={refundStatusChoices} alwaysOn />];

const Column = DataTable.Col<Refund>;

const lastErrorOrNextTry = (r: Refund) =>
  r.status === "issued"
    ? `Issued ${consoleMoment(r.issued_at ?? r.updated_at)}`
    : r.last_error
      ? `${r.last_error} Next try ${consoleMoment(r.next_attempt_at)}.`
      : "—";

/** Refunds owed by cancellations and admins: pending, failed (why, and when it is tried again) and issued. */
export function RefundList() {
  return (
    <List filters={refundFilters} sort={{ field: "owed_at", order: "DESC" }} perPage={25} title="Refunds" exporter={listExporter}>
      <DataTable rowClick="show" bulkActionButtons={false}>
        <Column source="owed_at" label="Owed since">
          <DateTimeField source="owed_at" />
        </Column>
        <Column source="booking_id" label="Booking">
          <ReferenceField source="booking_id" reference="bookings" link="show" />
        </Column>
        <Column source="amount_cents" label="Amount" align="right">
          <MoneyField source="amount_cents" />
        </Column>
        <Column source="reason" label="Why" disableSort>
          <TextField source="reason" />
        </Column>
        <Column source="status" label="Status">
          <RefundStatusField />
        </Column>
        <Column source="attempts" label="Failed attempts" align="right" />
        <Column label="Last error / next try" disableSort>
          <FunctionField<Refund> render={lastErrorOrNextTry} />
        </Column>
      </DataTable>
    </List>
  );
}
