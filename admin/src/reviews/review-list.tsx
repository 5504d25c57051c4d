import { DataTable, FunctionField, List, SearchInput, SelectInput, TextField } from "react-admin";
import { DateTimeField } from "../fields/date-time-field.tsx";
import { listExporter } from "../layout/list-exporter.ts";
import { HideReviewButton, VisibilityBadge } from "./hide-review.tsx";
import type { Review } from "./review-record.ts";

const reviewFilters = [
  <SearchInput key="q" source="q" placeholder="Review text" alwaysOn />,
  <SelectInput
    key="hidden"
    source="hidden"
    label="Shown"
    choices={[
      { id: "false", name: "Visible" },
      { id: "true", name: "Hidden" },
    ]}
    alwaysOn
  />,
];

const Column = DataTable.Col<Review>;

export function ReviewList() {
  return (
    <List filters={reviewFilters} sort={{ field: "created_at", order: "DESC" }} perPage={25} title="Reviews" exporter={listExporter}>
      <DataTable rowClick="show" bulkActionButtons={false}>
        <Column source="rating" label="Stars">
          <FunctionField<Review> render={(r) => "★".repeat(r.rating)} />
        </Column>
        <Column source="text" label="Review" disableSort>
          <TextField source="text" emptyText="—" />
        </Column>
        <Column source="creator_id" label="Creator">
          <FunctionField<Review> render={(r) => r.creator_name ?? r.creator_id} />
        </Column>
        <Column source="expert_id" label="Expert">
          <FunctionField<Review> render={(r) => r.expert_name ?? r.expert_id} />
        </Column>
        <Column source="created_at" label="Written">
          <DateTimeField source="created_at" />
        </Column>
        <Column source="hidden" label="Shown">
          <VisibilityBadge />
        </Column>
        <Column label="Moderation" disableSort>
          <HideReviewButton />
        </Column>
      </DataTable>
    </List>
  );
}
