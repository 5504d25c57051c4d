import { FunctionField, ReferenceField, Show, SimpleShowLayout, TextField } from "react-admin";
import { consoleMoment, DateTimeField } from "../fields/date-time-field.tsx";
import { MoneyField } from "../fields/money-field.tsx";
import type { Refund } from "./refund-record.ts";
import { RefundStatusField } from "./refund-status.tsx";

/** One refund: what is owed, to which payment, and what the provider said. */
export function RefundShow() {
  return (
    <Show title="Refund">
      <SimpleShowLayout>
        <ReferenceField source="booking_id" reference="bookings" link="show" label="Booking" />
        <MoneyField source="amount_cents" label="Amount" />
        <TextField source="reason" label="Why" />
        <RefundStatusField label="Status" />
        <DateTimeField source="owed_at" label="Owed since" />
        <TextField source="payment_id" label="Payment" emptyText="No payment known" />
        <FunctionField<Refund> label="Failed attempts" render={(r) => String(r.attempts)} />
        <TextField source="last_error" label="Last error" emptyText="—" />
        <FunctionField<Refund> label="Next try" render={(r) => (r.status === "issued" ? "—" : consoleMoment(r.next_attempt_at))} />
        <TextField source="refund_id" label="Provider's refund" emptyText="—" />
        <TextField source="provider" label="Provider" emptyText="—" />
        <DateTimeField source="issued_at" label="Issued" />
        <TextField source="id" label="Refund key (the owing event)" />
      </SimpleShowLayout>
    </Show>
  );
}
