import { AutocompleteInput, DataTable, FunctionField, List, ReferenceField, ReferenceInput, SearchInput, SelectInput } from "react-admin";
import { expertName } from "../experts/expert-record.ts";
import { DateTimeField } from "../fields/date-time-field.tsx";
import { MoneyField } from "../fields/money-field.tsx";
import { listExporter } from "../layout/list-exporter.ts";
import { sessionStatusChoices, type Session } from "./session-record.ts";

const sessionFilters = [
  <SearchInput key="q" source="q" placeholder="Title or id" alwaysOn />,
  <SelectInput key="status" source="status" label="Status" choices={sessionStatusChoices} alwaysOn />,
  <SelectInput
    key="deleted"
    source="deleted"
    label="Deleted"
    choices={[
      { id: "false", name: "Live" },
      { id: "true", name: "Deleted" },
    ]}
    alwaysOn
  />,
  <ReferenceInput key="expert_id" source="expert_id" reference="experts">
    <AutocompleteInput label="Expert" optionText={expertName} />
  </ReferenceInput>,
];

const Column = DataTable.Col<Session>;

export function SessionList() {
  return (
    <List filters={sessionFilters} sort={{ field: "updated_at", order: "DESC" }} perPage={25} title="Sessions" exporter={listExporter}>
      <DataTable rowClick="show" bulkActionButtons={false}>
        <Column source="title" />
        <Column source="expert_id" label="Expert">
          <ReferenceField source="expert_id" reference="experts" link="show" />
        </Column>
        <Column source="status" label="Status">
          <FunctionField<Session> render={(s) => (s.deleted ? `Deleted (${s.status})` : s.status === "draft" ? "Draft" : "Published")} />
        </Column>
        <Column source="length_minutes" label="Length" render={(s) => `${s.length_minutes} min`} />
        <Column source="price_cents" label="Price" align="right">
          <MoneyField source="price_cents" />
        </Column>
        <Column source="updated_at" label="Updated">
          <DateTimeField source="updated_at" />
        </Column>
      </DataTable>
    </List>
  );
}
