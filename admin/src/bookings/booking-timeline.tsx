import { Box, Button, Card, CardContent, Chip, Link, Stack, Typography } from "@mui/material";
import { useState } from "react";
import { Link as RouterLink } from "react-router-dom";
import { RecordContextProvider, ReferenceField, TextField, useCreatePath, useRecordContext } from "react-admin";
import { consoleMoment } from "../fields/date-time-field.tsx";
import { JsonBlock } from "../fields/json-payload.tsx";
import { BookingAsOf } from "./booking-as-of.tsx";
import { eventLabel, type Actor, type Booking, type TimelineEntry } from "./booking-record.ts";

/** Who caused an event: the user (linked) with their role, or the system process by name. */
function Who({ actor, eventId }: { actor: Actor | null; eventId: string }) {
  if (!actor) return <span>unknown</span>;
  if (actor.role === "system") return <span>system ({actor.userId})</span>;
  return (
    <RecordContextProvider value={{ id: eventId, actor }}>
      <Stack direction="row" spacing={0.75} component="span" sx={{ alignItems: "center" }}>
        <ReferenceField source="actor.userId" reference="users" link="show" emptyText={actor.userId}>
          <TextField source="email" />
        </ReferenceField>
        <Chip size="small" variant="outlined" label={actor.role} />
      </Stack>
    </RecordContextProvider>
  );
}

type Selection = { bookingId: string; selected: string | null; select: (eventId: string | null) => void };

function TimelineItem({ entry, index, selection }: { entry: TimelineEntry; index: number; selection: Selection }) {
  const createPath = useCreatePath();
  const chosen = selection.selected === entry.event_id;
  return (
    <Card
      variant="outlined"
      component="li"
      id={`event-${entry.event_id}`}
      sx={chosen ? { borderColor: "primary.main", borderWidth: 2 } : undefined}
      data-testid="timeline-entry"
      data-selected={chosen}
      data-event-id={entry.event_id}
      data-type={entry.type}
      data-version={entry.version}
      data-time={entry.time}
      data-actor={entry.actor ? `${entry.actor.role}:${entry.actor.userId}` : ""}
    >
      <CardContent sx={{ "&:last-child": { pb: 2 } }}>
        <Stack direction={{ xs: "column", sm: "row" }} spacing={1} sx={{ alignItems: { sm: "baseline" }, justifyContent: "space-between" }}>
          <Typography variant="subtitle1" component="h3">
            {index + 1}. {eventLabel(entry.type)}{" "}
            <Typography component="code" variant="body2" color="text.secondary" data-testid="timeline-type">
              {entry.type}
            </Typography>
          </Typography>
          <Typography variant="body2" color="text.secondary" component="time" dateTime={entry.time} title={entry.time}>
            {consoleMoment(entry.time, "seconds")}
          </Typography>
        </Stack>
        <Stack direction="row" spacing={1} sx={{ my: 1, alignItems: "center", flexWrap: "wrap" }}>
          <Typography variant="body2" component="span">
            By
          </Typography>
          <Who actor={entry.actor} eventId={entry.event_id} />
          <Typography variant="caption" color="text.secondary" component="span">
            · stream version {entry.version} · position {entry.position} ·{" "}
            <Link component={RouterLink} to={createPath({ resource: "events", id: entry.event_id, type: "show" })}>
              raw event
            </Link>
          </Typography>
        </Stack>
        <JsonBlock value={entry.data} testId="timeline-payload" />
        <Button size="small" sx={{ mt: 1 }} aria-pressed={chosen} onClick={() => selection.select(chosen ? null : entry.event_id)}>
          {chosen ? "Hide the booking as of this event" : "Show the booking as of this event"}
        </Button>
        {chosen ? <BookingAsOf bookingId={selection.bookingId} eventId={entry.event_id} onStep={selection.select} /> : null}
      </CardContent>
    </Card>
  );
}

/** The booking's full history from its expert's calendar stream, oldest first, newest last. */
export function BookingTimeline() {
  const booking = useRecordContext<Booking>();
  const timeline = booking?.timeline ?? [];
  const [selected, setSelected] = useState<string | null>(null);
  const select = (eventId: string | null) => {
    setSelected(eventId);
    // Stepping moves to another card: keep it in view.
    if (eventId) requestAnimationFrame(() => document.getElementById(`event-${eventId}`)?.scrollIntoView({ block: "nearest" }));
  };
  return (
    <Box component="section" aria-labelledby="timeline-heading">
      <Typography id="timeline-heading" variant="h6" gutterBottom>
        Timeline
      </Typography>
      <Typography variant="body2" color="text.secondary" gutterBottom>
        {timeline.length} event{timeline.length === 1 ? "" : "s"} from the event store, newest last. Choose one to see the booking as it was
        just after it.
      </Typography>
      <Stack component="ol" spacing={1.5} sx={{ listStyle: "none", p: 0, m: 0 }} data-testid="booking-timeline">
        {timeline.map((entry, index) => (
          <TimelineItem
            key={entry.event_id}
            entry={entry}
            index={index}
            selection={{ bookingId: String(booking?.id ?? ""), selected, select }}
          />
        ))}
      </Stack>
    </Box>
  );
}
