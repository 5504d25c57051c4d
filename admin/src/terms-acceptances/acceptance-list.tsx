import {
  AutocompleteInput,
  DataTable,
  DateInput,
  FilterButton,
  List,
  ReferenceInput,
  SearchInput,
  TextField,
  TextInput,
  TopToolbar,
} from "react-admin";
import type { AdminTermsAcceptanceReply } from "@booking/contracts";
import { DateTimeField } from "../fields/date-time-field.tsx";
import { ExportCsvButton } from "../layout/export-csv-button.tsx";

/** An acceptance of the terms (GET /admin/terms-acceptances): id is `{user_id}:{version_id}`. */
export type TermsAcceptance = AdminTermsAcceptanceReply;

const acceptanceFilters = [
  <SearchInput key="q" source="q" placeholder="Email" alwaysOn />,
  <TextInput key="version_id" source="version_id" label="Terms version" alwaysOn resettable />,
  <DateInput key="accepted_from" source="accepted_from" label="Accepted from" alwaysOn />,
  <DateInput key="accepted_to" source="accepted_to" label="Accepted to" alwaysOn />,
  <ReferenceInput key="user_id" source="user_id" reference="users">
    <AutocompleteInput label="User" optionText="email" />
  </ReferenceInput>,
];

function AcceptanceActions() {
  return (
    <TopToolbar>
      <FilterButton />
      <ExportCsvButton />
    </TopToolbar>
  );
}

const Column = DataTable.Col<TermsAcceptance>;

/** The audit of who accepted which terms version when; the CSV export carries the same filters. */
export function AcceptanceList() {
  return (
    <List
      filters={acceptanceFilters}
      actions={<AcceptanceActions />}
      sort={{ field: "accepted_at", order: "DESC" }}
      perPage={25}
      title="Terms acceptances"
    >
      <DataTable
        bulkActionButtons={false}
        rowClick={(_id, _resource, record) => `/users/${encodeURIComponent(String(record.user_id))}/show`}
      >
        <Column source="accepted_at" label="Accepted">
          <DateTimeField source="accepted_at" />
        </Column>
        <Column source="email" label="Email">
          <TextField source="email" emptyText="(user not in the read model yet)" />
        </Column>
        <Column source="version_id" label="Terms version" />
        <Column source="user_id" label="User id" />
      </DataTable>
    </List>
  );
}
