import { DataTable, FunctionField, List, ReferenceField, SearchInput, SelectInput, TextField } from "react-admin";
import { DateTimeField } from "../fields/date-time-field.tsx";
import { listExporter } from "../layout/list-exporter.ts";
import { expertName, type Expert } from "./expert-record.ts";
import { VerifiedBadge, VettingButton } from "./vetting.tsx";

const yesNo = (yes: string, no: string) => [
  { id: "true", name: yes },
  { id: "false", name: no },
];

const expertFilters = [
  <SearchInput key="q" source="q" placeholder="Name, title or slug" alwaysOn />,
  <SelectInput key="verified" source="verified" label="Vetting" choices={yesNo("Verified", "Not verified")} alwaysOn />,
  <SelectInput key="published" source="published" label="Profile" choices={yesNo("Published", "Unpublished")} alwaysOn />,
];

const Column = DataTable.Col<Expert>;

export function ExpertList() {
  return (
    <List filters={expertFilters} sort={{ field: "updated_at", order: "DESC" }} perPage={25} title="Experts" exporter={listExporter}>
      <DataTable rowClick="show" bulkActionButtons={false}>
        <Column source="last_name" label="Name">
          <FunctionField<Expert> render={expertName} />
        </Column>
        <Column source="title" label="Title" />
        <Column source="slug" label="Slug" />
        <Column source="published" label="Profile">
          <FunctionField<Expert> render={(e) => (e.published ? "Published" : "Unpublished")} />
        </Column>
        <Column source="verified" label="Vetting">
          <VerifiedBadge />
        </Column>
        <Column source="vetted_by" label="Vetted by" disableSort>
          <ReferenceField source="vetted_by" reference="users" link="show" emptyText="—">
            <TextField source="email" />
          </ReferenceField>
        </Column>
        <Column source="updated_at" label="Updated">
          <DateTimeField source="updated_at" />
        </Column>
        <Column label="Decision" disableSort>
          <VettingButton />
        </Column>
      </DataTable>
    </List>
  );
}
