import { DataTable, Pagination, ReferenceField, ReferenceManyField, TextField } from "react-admin";
import { DateTimeField } from "../fields/date-time-field.tsx";
import { MoneyField } from "../fields/money-field.tsx";
import type { Booking } from "./booking-record.ts";
import { BookingStatusField } from "./booking-status.tsx";

const Column = DataTable.Col<Booking>;

/** The bookings whose `target` (creator_id, expert_id, session_id...) is this record's id. `label` is for the show layout. */
export function RelatedBookings({ target }: { target: keyof Booking & string; label: string }) {
  return (
    <ReferenceManyField
      reference="bookings"
      target={target}
      sort={{ field: "scheduled_time", order: "DESC" }}
      perPage={10}
      pagination={<Pagination rowsPerPageOptions={[10, 25]} />}
    >
      <DataTable rowClick="show" bulkActionButtons={false} empty={<span>No bookings.</span>}>
        <Column source="scheduled_time" label="Scheduled">
          <DateTimeField source="scheduled_time" />
        </Column>
        <Column source="session_title" label="Session" />
        {target !== "expert_id" && target !== "expert_user_id" ? (
          <Column source="expert_id" label="Expert">
            <ReferenceField source="expert_id" reference="experts" link={false} />
          </Column>
        ) : null}
        {target !== "creator_id" ? (
          <Column source="creator_id" label="Creator">
            <ReferenceField source="creator_id" reference="users" link={false}>
              <TextField source="email" />
            </ReferenceField>
          </Column>
        ) : null}
        <Column source="status" label="Status">
          <BookingStatusField />
        </Column>
        <Column source="price_cents" label="Price" align="right">
          <MoneyField source="price_cents" />
        </Column>
      </DataTable>
    </ReferenceManyField>
  );
}
