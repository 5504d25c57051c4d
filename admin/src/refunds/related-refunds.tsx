import { DataTable, ReferenceManyField } from "react-admin";
import { DateTimeField } from "../fields/date-time-field.tsx";
import { MoneyField } from "../fields/money-field.tsx";
import type { Refund } from "./refund-record.ts";
import { RefundStatusField } from "./refund-status.tsx";

const Column = DataTable.Col<Refund>;

/** The refunds owed on this booking (its money trail's refunds, one per owing event). `label` is for the show layout. */
export function RelatedRefunds(_props: { label: string }) {
  return (
    <ReferenceManyField reference="refunds" target="booking_id" sort={{ field: "owed_at", order: "ASC" }} perPage={25}>
      <DataTable rowClick="show" bulkActionButtons={false} empty={<span>No refunds.</span>}>
        <Column source="owed_at" label="Owed since">
          <DateTimeField source="owed_at" />
        </Column>
        <Column source="amount_cents" label="Amount" align="right">
          <MoneyField source="amount_cents" />
        </Column>
        <Column source="reason" label="Why" disableSort />
        <Column source="status" label="Status">
          <RefundStatusField />
        </Column>
      </DataTable>
    </ReferenceManyField>
  );
}
