import { DataTable, List, SearchInput, SelectInput, TextField } from "react-admin";
import { DateTimeField, consoleMoment } from "../fields/date-time-field.tsx";
import { listExporter } from "../layout/list-exporter.ts";
import { TermsStatusField } from "./terms-status.tsx";
import { erasedLabel, roleChoices, type User } from "./user-record.ts";

const termsChoices = [
  { id: "true", name: "Accepted the current terms" },
  { id: "false", name: "Not accepted the current terms" },
];

const userFilters = [
  <SearchInput key="q" source="q" placeholder="Email" alwaysOn />,
  <SelectInput key="role" source="role" label="Role" choices={roleChoices} alwaysOn />,
  <SelectInput key="accepted_current_terms" source="accepted_current_terms" label="Terms" choices={termsChoices} alwaysOn />,
];

const Column = DataTable.Col<User>;

export function UserList() {
  return (
    <List filters={userFilters} sort={{ field: "registered_at", order: "DESC" }} perPage={25} title="Users" exporter={listExporter}>
      <DataTable rowClick="show" bulkActionButtons={false}>
        <Column source="email" label="Email" render={(u) => erasedLabel(u, consoleMoment) ?? u.email} />
        <Column source="last_name" label="Name" render={(u) => [u.first_name, u.last_name].filter(Boolean).join(" ") || "—"} />
        <Column source="role" label="Role">
          <TextField source="role" sx={{ textTransform: "capitalize" }} />
        </Column>
        <Column source="current_terms_accepted_at" label="Terms">
          <TermsStatusField />
        </Column>
        <DataTable.NumberCol source="bookings_as_creator" label="Booked" disableSort />
        <DataTable.NumberCol source="bookings_as_expert" label="Hosted" disableSort />
        <Column source="registered_at" label="Registered">
          <DateTimeField source="registered_at" />
        </Column>
      </DataTable>
    </List>
  );
}
