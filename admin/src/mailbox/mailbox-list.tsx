import { DataTable, FunctionField, List, SearchInput, SelectArrayInput, SelectInput, TextField, TextInput } from "react-admin";
import { DateTimeField } from "../fields/date-time-field.tsx";
import { listExporter } from "../layout/list-exporter.ts";
import { kindLabel, mailKindChoices, mailStatusChoices, type MailRow } from "./mail-record.ts";
import { MailStatusField } from "./mail-status.tsx";

const mailboxFilters = [
  <TextInput key="to" source="to" label="To (address)" alwaysOn />,
  <SelectInput key="kind" source="kind" label="Kind" choices={mailKindChoices} alwaysOn />,
  <SelectArrayInput key="status" source="status" label="Status" choices={mailStatusChoices} />,
  <SearchInput key="q" source="q" placeholder="Subject" />,
];

const Column = DataTable.Col<MailRow>;

/** The dev mailbox: every message the product owes someone, newest first, as it would be sent. */
export function MailboxList() {
  return (
    <List filters={mailboxFilters} sort={{ field: "created_at", order: "DESC" }} perPage={25} title="Mailbox" exporter={listExporter}>
      <DataTable rowClick="show" bulkActionButtons={false}>
        <Column source="created_at" label="Created">
          <DateTimeField source="created_at" />
        </Column>
        <Column source="to" label="To">
          <TextField source="to" />
        </Column>
        <Column source="kind" label="Kind">
          <FunctionField<MailRow> render={(m) => kindLabel(m.kind)} />
        </Column>
        <Column source="subject" label="Subject">
          <TextField source="subject" />
        </Column>
        <Column source="status" label="Status">
          <MailStatusField withNote />
        </Column>
      </DataTable>
    </List>
  );
}
