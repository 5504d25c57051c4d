import { Alert, Chip } from "@mui/material";
import { DataTable, FunctionField, List, ReferenceField, SelectArrayInput, TextField, useRecordContext } from "react-admin";
import { UnmatchedRefundWhy, type AdminUnmatchedRefundReply } from "@booking/contracts";
import { DateTimeField } from "../fields/date-time-field.tsx";
import { MoneyField } from "../fields/money-field.tsx";
import { listExporter } from "../layout/list-exporter.ts";

/** A refund the payment provider reported that the product did not record (GET /admin/unmatched-refunds). */
export type UnmatchedRefund = AdminUnmatchedRefundReply;

export const unmatchedWhyLabels: Record<UnmatchedRefundWhy, string> = {
  unknown_refund: "Not a refund we asked for",
  over_refund: "More than we asked for or was paid",
  amount_differs: "Not the amount we asked for",
};

const whyChoices = UnmatchedRefundWhy.options.map((id) => ({ id, name: unmatchedWhyLabels[id] }));
const filters = [<SelectArrayInput key="why" source="why" label="Why" choices={whyChoices} alwaysOn />];

const Column = DataTable.Col<UnmatchedRefund>;
const SORT = { field: "last_seen_at", order: "DESC" } as const;

function WhyField(_props: { label?: string }) {
  const refund = useRecordContext<UnmatchedRefund>();
  if (!refund) return null;
  const color = refund.why === "over_refund" ? "error" : "warning";
  return <Chip size="small" color={color} label={unmatchedWhyLabels[refund.why]} data-testid={`unmatched-${refund.why}`} />;
}

/**
 * Refunds the provider (Stripe) reported that were not recorded on any booking: made outside the
 * product (Stripe's dashboard), or claiming a refund key it never issued, or more than it asked for.
 * Money may have gone back without the booking showing it: look each one up at the provider.
 */
export function UnmatchedRefundList() {
  return (
    <List filters={filters} sort={SORT} perPage={25} title="Unmatched provider refunds" exporter={listExporter} empty={false}>
      <Alert severity="info" sx={{ mb: 1 }}>
        Refunds the payment provider reported that no booking records. None of them changed a booking&apos;s money; check each at the
        provider.
      </Alert>
      <DataTable bulkActionButtons={false}>
        <Column source="last_seen_at" label="Last reported">
          <DateTimeField source="last_seen_at" />
        </Column>
        <Column source="refund_id" label="Provider's refund" disableSort>
          <TextField source="refund_id" />
        </Column>
        <Column source="amount_cents" label="Amount" align="right">
          <MoneyField source="amount_cents" />
        </Column>
        <Column source="why" label="Why not recorded">
          <WhyField />
        </Column>
        <Column source="booking_id" label="Booking it claims">
          <ReferenceField source="booking_id" reference="bookings" link="show" emptyText="None" />
        </Column>
        <Column source="provider_status" label="Provider status" disableSort>
          <TextField source="provider_status" emptyText="—" />
        </Column>
        <Column source="reports" label="Reports" align="right" />
        <Column label="Event" disableSort>
          <FunctionField<UnmatchedRefund> render={(r) => r.event_id} />
        </Column>
      </DataTable>
    </List>
  );
}
