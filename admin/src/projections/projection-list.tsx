import { DataTable, List, NumberField } from "react-admin";
import { DateTimeField } from "../fields/date-time-field.tsx";
import { GenerationsField } from "./projection-generations.tsx";
import type { ProjectionRecord } from "./projection-record.ts";
import { LagField, LastErrorField, ProjectionStatusField } from "./projection-status.tsx";
import { RebuildControl } from "./rebuild-control.tsx";

const Column = DataTable.Col<ProjectionRecord>;

/** Every read model with its checkpoint, lag, generations and last error; refreshed every few seconds. */
export function ProjectionList() {
  return (
    <List
      sort={{ field: "name", order: "ASC" }}
      perPage={50}
      pagination={false}
      title="Read models"
      queryOptions={{ refetchInterval: 5000 }}
      exporter={false}
    >
      <DataTable rowClick="show" bulkActionButtons={false}>
        <Column source="name" label="Read model" />
        <Column source="status" label="Status">
          <ProjectionStatusField />
        </Column>
        <Column source="position" label="Checkpoint" disableSort />
        <Column source="events_applied" label="Events applied" align="right">
          <NumberField source="events_applied" />
        </Column>
        <Column source="lag" label="Lag (events)">
          <LagField />
        </Column>
        <Column label="Generations" disableSort>
          <GenerationsField />
        </Column>
        <Column source="last_error" label="Last error" disableSort>
          <LastErrorField />
        </Column>
        <Column source="updated_at" label="Checkpoint updated">
          <DateTimeField source="updated_at" />
        </Column>
        <Column label="Rebuild" disableSort>
          <RebuildControl />
        </Column>
      </DataTable>
    </List>
  );
}
