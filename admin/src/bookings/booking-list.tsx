import {
  AutocompleteInput,
  DataTable,
  DateInput,
  List,
  ReferenceField,
  ReferenceInput,
  SearchInput,
  SelectInput,
  TextField,
} from "react-admin";
import { DateTimeField } from "../fields/date-time-field.tsx";
import { MoneyField } from "../fields/money-field.tsx";
import { listExporter } from "../layout/list-exporter.ts";
import { statusChoices, type Booking } from "./booking-record.ts";
import { BookingStatusField, PaymentStateField } from "./booking-status.tsx";

const paidChoices = [
  { id: "true", name: "Paid (incl. refund due)" },
  { id: "false", name: "Unpaid" },
];

const bookingFilters = [
  <SearchInput key="q" source="q" placeholder="Session title or id" alwaysOn />,
  <SelectInput key="status" source="status" label="Status" choices={statusChoices} alwaysOn />,
  <DateInput key="scheduled_from" source="scheduled_from" label="Scheduled from" alwaysOn />,
  <DateInput key="scheduled_to" source="scheduled_to" label="Scheduled to" alwaysOn />,
  <SelectInput key="paid" source="paid" label="Payment" choices={paidChoices} />,
  <ReferenceInput key="expert_id" source="expert_id" reference="experts">
    <AutocompleteInput label="Expert" optionText={(e: { first_name: string; last_name: string }) => `${e.first_name} ${e.last_name}`} />
  </ReferenceInput>,
  <ReferenceInput key="creator_id" source="creator_id" reference="users" filter={{ role: "creator" }}>
    <AutocompleteInput label="Creator" optionText="email" />
  </ReferenceInput>,
];

const Column = DataTable.Col<Booking>;

/** Bookings with every column the audit needs; filters stack (status, dates, payment, people). */
export function BookingList() {
  return (
    <List filters={bookingFilters} sort={{ field: "scheduled_time", order: "DESC" }} perPage={25} title="Bookings" exporter={listExporter}>
      <DataTable rowClick="show" bulkActionButtons={false}>
        <Column source="scheduled_time" label="Scheduled">
          <DateTimeField source="scheduled_time" />
        </Column>
        <Column source="session_title" label="Session" />
        <Column source="expert_id" label="Expert">
          <ReferenceField source="expert_id" reference="experts" link="show" />
        </Column>
        <Column source="creator_id" label="Creator">
          <ReferenceField source="creator_id" reference="users" link="show">
            <TextField source="email" />
          </ReferenceField>
        </Column>
        <Column source="status" label="Status">
          <BookingStatusField />
        </Column>
        <Column source="payment_state" label="Payment">
          <PaymentStateField />
        </Column>
        <Column source="price_cents" label="Price" align="right">
          <MoneyField source="price_cents" />
        </Column>
        <Column source="created_at" label="Booked">
          <DateTimeField source="created_at" />
        </Column>
      </DataTable>
    </List>
  );
}
