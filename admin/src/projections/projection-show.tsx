import { FunctionField, Labeled, NumberField, Show, SimpleShowLayout, TextField, useRecordContext } from "react-admin";
import { DateTimeField } from "../fields/date-time-field.tsx";
import { GenerationsField } from "./projection-generations.tsx";
import type { ProjectionRecord } from "./projection-record.ts";
import { LagField, LastErrorField, ProjectionStatusField } from "./projection-status.tsx";
import { RebuildControl } from "./rebuild-control.tsx";

function ProjectionTitle() {
  const p = useRecordContext<ProjectionRecord>();
  return <span>Read model {p ? `· ${p.name}` : ""}</span>;
}

export function ProjectionShow() {
  return (
    <Show title={<ProjectionTitle />} queryOptions={{ refetchInterval: 5000 }}>
      <SimpleShowLayout>
        <TextField source="name" label="Read model" />
        <FunctionField<ProjectionRecord> label="Tables" render={(p) => p.tables.join(", ")} />
        <ProjectionStatusField label="Status" />
        <TextField source="position" label="Checkpoint" emptyText="none yet" />
        <NumberField source="events_applied" label="Events applied" />
        <LagField label="Lag (events)" />
        <GenerationsField label="Generations" />
        <NumberField source="version" label="Version of the rule (this API)" />
        <LastErrorField label="Last error" />
        <DateTimeField source="updated_at" label="Checkpoint updated" />
        <Labeled label="Rebuild from the event store">
          <RebuildControl />
        </Labeled>
      </SimpleShowLayout>
    </Show>
  );
}
