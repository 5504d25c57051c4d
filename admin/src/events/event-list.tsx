import { Typography } from "@mui/material";
import { DataTable, DateInput, List, SelectArrayInput, TextInput, useRecordContext } from "react-admin";
import { DateTimeField } from "../fields/date-time-field.tsx";
import { JsonBlock } from "../fields/json-payload.tsx";
import { listExporter } from "../layout/list-exporter.ts";
import { eventTypeChoices, type LoggedEvent } from "./event-record.ts";

const eventFilters = [
  <TextInput
    key="stream_id"
    source="stream_id"
    label="Stream (prefix)"
    helperText="calendar- for every calendar, or calendar-{expert id}"
    alwaysOn
    resettable
  />,
  <SelectArrayInput key="type" source="type" label="Type" choices={eventTypeChoices} alwaysOn sx={{ minWidth: 220 }} />,
  <DateInput key="from" source="from" label="Recorded from" alwaysOn />,
  <DateInput key="to" source="to" label="Recorded to" alwaysOn />,
];

/** Under a row: the payload and the metadata, indented. */
function EventPayload() {
  const event = useRecordContext<LoggedEvent>();
  if (!event) return null;
  return (
    <>
      <Typography variant="overline">Payload</Typography>
      <JsonBlock value={event.data} />
      <Typography variant="overline">Metadata</Typography>
      <JsonBlock value={event.metadata} />
    </>
  );
}

function Actor() {
  const event = useRecordContext<LoggedEvent>();
  const actor = event?.metadata.actor;
  return <span>{actor ? `${actor.role} ${actor.userId}` : "—"}</span>;
}

const Column = DataTable.Col<LoggedEvent>;

/** The global event log, newest first; expand a row to read its payload. */
export function EventList() {
  return (
    <List filters={eventFilters} sort={{ field: "position", order: "DESC" }} perPage={50} title="Event log" exporter={listExporter}>
      <DataTable rowClick="expand" expand={<EventPayload />} bulkActionButtons={false}>
        <Column source="position" label="Position" />
        <Column source="recorded_at" label="Recorded">
          <DateTimeField source="recorded_at" />
        </Column>
        <Column source="stream_id" label="Stream" />
        <DataTable.NumberCol source="version" label="Version" disableSort />
        <Column source="type" label="Type" />
        <Column label="Actor" disableSort>
          <Actor />
        </Column>
        <Column label="Payload" disableSort render={(e) => <code>{JSON.stringify(e.data).slice(0, 80)}</code>} />
      </DataTable>
    </List>
  );
}
