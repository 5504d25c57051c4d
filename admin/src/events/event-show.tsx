import { Link } from "@mui/material";
import { Link as RouterLink } from "react-router-dom";
import { FunctionField, Labeled, NumberField, Show, SimpleShowLayout, TextField, useCreatePath, useRecordContext } from "react-admin";
import { DateTimeField } from "../fields/date-time-field.tsx";
import { JsonField } from "../fields/json-payload.tsx";
import { streamOwner, type LoggedEvent } from "./event-record.ts";

function EventTitle() {
  const event = useRecordContext<LoggedEvent>();
  return <span>Event {event ? `· ${event.type}` : ""}</span>;
}

/** Links to what the event is about: its stream's owner, and its booking when it has one. */
function RelatedLinks() {
  const event = useRecordContext<LoggedEvent>();
  const createPath = useCreatePath();
  if (!event) return null;
  const owner = streamOwner(event.stream_id);
  const bookingId = typeof event.data.bookingId === "string" ? event.data.bookingId : null;
  return (
    <span style={{ display: "flex", gap: 16 }}>
      {owner ? (
        <Link component={RouterLink} to={createPath({ resource: owner.resource, id: owner.id, type: "show" })}>
          Stream owner ({owner.resource})
        </Link>
      ) : null}
      {bookingId ? (
        <Link component={RouterLink} to={createPath({ resource: "bookings", id: bookingId, type: "show" })}>
          Booking
        </Link>
      ) : null}
      <Link
        component={RouterLink}
        to={{ pathname: "/events", search: `?filter=${encodeURIComponent(JSON.stringify({ stream_id: event.stream_id }))}` }}
      >
        Whole stream
      </Link>
    </span>
  );
}

export function EventShow() {
  return (
    <Show title={<EventTitle />}>
      <SimpleShowLayout>
        <TextField source="type" />
        <TextField source="stream_id" label="Stream" />
        <NumberField source="version" label="Stream version" />
        <TextField source="position" />
        <DateTimeField source="recorded_at" label="Recorded" />
        <FunctionField<LoggedEvent> label="Schema version" render={(e) => `v${e.schema_version}`} />
        <TextField source="id" label="Event id" />
        <Labeled label="Related">
          <RelatedLinks />
        </Labeled>
        <JsonField source="data" label="Payload" />
        <JsonField source="metadata" label="Metadata" />
      </SimpleShowLayout>
    </Show>
  );
}
