import {
  Alert,
  Box,
  Button,
  CircularProgress,
  Link,
  Stack,
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableRow,
  Typography,
  alpha,
} from "@mui/material";
import { useQuery } from "@tanstack/react-query";
import { Link as RouterLink } from "react-router-dom";
import { useDataProvider } from "react-admin";
import type { BookingAsOfReply, BookingAsOfState, BookingStatus } from "@booking/contracts";
import type { ConsoleDataProvider } from "../data-provider.ts";
import { consoleMoment } from "../fields/date-time-field.tsx";
import { formatCents } from "../fields/money-field.tsx";
import { calendarAtPath } from "../calendar-at/calendar-at-path.ts";
import { eventLabel, statusLabels } from "./booking-record.ts";

// Time travel in a booking's timeline: the booking as it was just after the chosen event, folded
// from its calendar stream by the engine (GET /admin/bookings/{id}/as-of), beside the booking just
// before it, with what the event changed highlighted.

/** The fields in the order shown, in words; a field the API adds later follows them under its own name. */
const LABELS: Partial<Record<keyof BookingAsOfState, string>> = {
  status: "Status",
  scheduled_time: "Scheduled",
  previous_time: "Previously scheduled",
  holds_time: "Holds its time",
  held_until: "Unpaid hold until",
  reschedule_to: "Asked to move to",
  reschedule_requested_at: "Move asked at",
  reschedule_held: "Move holds",
  price_cents: "Price",
  paid_cents: "Paid",
  payment_ids: "Payments",
  payment_failures: "Failed payments",
  owed_cents: "Owed back",
  refunded_cents: "Refunded",
  refund_keys: "Refunds issued for",
  refund_failures: "Failed refunds",
  prep_questions: "Preparation questions",
  prep_answers: "Preparation answers",
  info_request_note: "Information requested",
  has_notes: "Has notes",
  notes: "Session notes",
  join_link: "Join link",
  confirmed_at: "Confirmed at",
  cancelled_by: "Cancelled by",
  cancel_reason: "Cancel reason",
  cancelled_at: "Cancelled at",
  length_minutes: "Length (minutes)",
  session_title: "Session",
  creator_id: "Creator id",
  expert_user_id: "Expert user id",
  session_id: "Session id",
  booking_id: "Booking id",
};

const ISO_INSTANT = /^\d{4}-\d\d-\d\dT\d\d:\d\d(:\d\d(\.\d+)?)?(Z|[+-]\d\d:\d\d)$/;

/** A field's value as an admin reads it. */
function shown(field: string, value: unknown): string {
  if (value === null || value === undefined) return "—";
  if (typeof value === "boolean") return value ? "Yes" : "No";
  if (typeof value === "number") return field.endsWith("_cents") ? formatCents(value) : String(value);
  if (field === "status" && typeof value === "string") return statusLabels[value as BookingStatus] ?? value;
  if (typeof value === "string") return ISO_INSTANT.test(value) ? consoleMoment(value, "seconds") : value;
  if (Array.isArray(value)) return value.length ? value.map((v) => (typeof v === "string" ? v : JSON.stringify(v))).join(" · ") : "none";
  return JSON.stringify(value);
}

const fieldsOf = (state: BookingAsOfState) => {
  const known = Object.keys(LABELS) as string[];
  return [...known, ...Object.keys(state).filter((f) => !known.includes(f))];
};

function Changes({ reply }: { reply: BookingAsOfReply }) {
  const changed = new Set(reply.changes.map((c) => c.field));
  const before = reply.before as Record<string, unknown> | null;
  const after = reply.booking as Record<string, unknown>;
  return (
    <Table size="small" aria-label="The booking before and after this event" data-testid="as-of-fields">
      <TableHead>
        <TableRow>
          <TableCell>Field</TableCell>
          <TableCell>Before</TableCell>
          <TableCell>After this event</TableCell>
        </TableRow>
      </TableHead>
      <TableBody>
        {fieldsOf(reply.booking).map((field) => {
          const isChanged = changed.has(field);
          return (
            <TableRow
              key={field}
              data-testid="as-of-field"
              data-field={field}
              data-changed={isChanged}
              sx={isChanged ? { bgcolor: (t) => alpha(t.palette.warning.main, 0.22), "& td, & th": { fontWeight: 600 } } : undefined}
            >
              <TableCell component="th" scope="row">
                {LABELS[field as keyof BookingAsOfState] ?? field}
                {isChanged ? (
                  <Box component="span" sx={{ position: "absolute", left: -10000 }}>
                    {" "}
                    (changed)
                  </Box>
                ) : null}
              </TableCell>
              <TableCell sx={{ color: isChanged ? undefined : "text.secondary", wordBreak: "break-word" }} data-testid="as-of-before">
                {before ? shown(field, before[field]) : "—"}
              </TableCell>
              <TableCell sx={{ wordBreak: "break-word" }} data-testid="as-of-after">
                {shown(field, after[field])}
              </TableCell>
            </TableRow>
          );
        })}
      </TableBody>
    </Table>
  );
}

/** The booking as of one event of its history, with buttons to step to the events either side. */
export function BookingAsOf({ bookingId, eventId, onStep }: { bookingId: string; eventId: string; onStep: (eventId: string) => void }) {
  const dataProvider = useDataProvider<ConsoleDataProvider>();
  const { data, error, isPending } = useQuery({
    queryKey: ["bookings", "as-of", bookingId, eventId],
    queryFn: () => dataProvider.bookingAsOf(bookingId, { event_id: eventId }),
  });
  if (isPending) return <CircularProgress size={20} aria-label="Folding the booking's history" />;
  if (error) return <Alert severity="error">{error.message}</Alert>;
  const previous = data.previous_event_id;
  const next = data.next_event_id;
  return (
    <Box
      component="section"
      aria-label={`The booking as it was after ${eventLabel(data.event.type)}`}
      data-testid="as-of-panel"
      data-event-id={data.event.event_id}
      data-status={data.booking.status}
      sx={{ mt: 1.5, position: "relative" }}
    >
      <Stack
        direction={{ xs: "column", sm: "row" }}
        spacing={1}
        sx={{ alignItems: { sm: "center" }, justifyContent: "space-between", mb: 1 }}
      >
        <Typography variant="subtitle2" component="h4">
          As it was after step {data.step} of {data.steps}: {eventLabel(data.event.type)} · {data.changes.length} field
          {data.changes.length === 1 ? "" : "s"} changed
        </Typography>
        <Stack direction="row" spacing={1}>
          <Button size="small" variant="outlined" disabled={!previous} onClick={() => previous && onStep(previous)}>
            Previous event
          </Button>
          <Button size="small" variant="outlined" disabled={!next} onClick={() => next && onStep(next)}>
            Next event
          </Button>
        </Stack>
      </Stack>
      <Typography variant="body2" color="text.secondary" gutterBottom>
        Folded from the expert's calendar stream up to this event, with the engine's own rules.{" "}
        <Link component={RouterLink} to={calendarAtPath({ expert: data.expert_id, at: data.event.time, on: data.booking.scheduled_time })}>
          The expert's calendar at this moment
        </Link>
      </Typography>
      <Changes reply={data} />
    </Box>
  );
}
