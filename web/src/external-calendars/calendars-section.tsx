import { Link as RouterLink } from "react-router-dom";
import { useQuery } from "@tanstack/react-query";
import Alert from "@mui/material/Alert";
import Box from "@mui/material/Box";
import Link from "@mui/material/Link";
import Typography from "@mui/material/Typography";
import { errorMessage } from "../shared/api-client.ts";
import type { BookingInExternalBusy, CalendarConnection } from "../shared/api-types.ts";
import { localMoment } from "../shared/local-time.ts";
import { useTimedNotice } from "../shared/timed-notices.ts";
import { CalendarConnectionItem } from "./calendar-connection.tsx";
import { calendarsQuery } from "./calendar-queries.ts";
import { ConnectCalendarForm } from "./connect-calendar-form.tsx";

/**
 * The expert's own calendars on the Schedule tab (issue 32): their busy times block bookings, one CalDAV calendar
 * can receive confirmed bookings, and the bookings made before a busy time appeared over them are listed to handle.
 * Times are in the schedule's zone.
 */
export function CalendarsSection({ expertId, zone }: { expertId: string; zone: string }) {
  const calendars = useQuery(calendarsQuery(expertId));
  const [notice, setNotice] = useTimedNotice<string>();
  const connections = calendars.data?.connections ?? [];

  return (
    <Box
      component="section"
      aria-labelledby="calendars-heading"
      data-testid="calendars-section"
      sx={{ display: "grid", gap: 2, maxWidth: 760 }}
    >
      <Typography id="calendars-heading" variant="h6" component="h2">
        Calendars
      </Typography>
      <Typography color="text.secondary">
        Connect your own calendars: their busy times block bookings, and confirmed bookings can be added to one of them. Event titles are
        never stored.
      </Typography>
      {calendars.data && <BookingsInBusyTimes bookings={calendars.data.affected_bookings} connections={connections} zone={zone} />}
      {notice && (
        <Alert severity="success" role="status">
          {notice}
        </Alert>
      )}
      {calendars.isPending ? (
        <Typography color="text.secondary">Loading your calendars…</Typography>
      ) : calendars.isError ? (
        <Alert severity="error">Your calendars could not be loaded: {errorMessage(calendars.error)}</Alert>
      ) : connections.length === 0 ? (
        <Typography color="text.secondary">No calendars connected yet.</Typography>
      ) : (
        <Box component="ul" aria-label="Connected calendars" sx={{ listStyle: "none", p: 0, m: 0, display: "grid", gap: 1.5 }}>
          {connections.map((c) => (
            <CalendarConnectionItem
              key={c.id}
              expertId={expertId}
              zone={zone}
              connection={c}
              onDisconnected={() => setNotice("Calendar disconnected.")}
            />
          ))}
        </Box>
      )}
      <ConnectCalendarForm expertId={expertId} />
    </Box>
  );
}

/** Bookings made before a busy time appeared over them: they stay booked, the expert moves or cancels them. Nothing when none. */
export function BookingsInBusyTimes({
  bookings,
  connections,
  zone,
}: {
  bookings: BookingInExternalBusy[];
  connections: CalendarConnection[];
  zone: string;
}) {
  if (bookings.length === 0) return null;
  const names = new Map(connections.flatMap((c) => c.calendars.map((k) => [k.id, k.name] as const)));
  return (
    // Not an alert: it stays until each booking is handled.
    <Alert severity="warning" role="region" aria-label="Bookings in your busy times" data-testid="calendar-affected-bookings">
      <Typography sx={{ fontWeight: 700 }}>Bookings in your busy times</Typography>
      <Typography variant="body2" sx={{ mb: 1 }}>
        These bookings were made before the busy time appeared in your calendar. They stay booked: move or cancel them if you cannot make
        it.
      </Typography>
      <Box component="ul" sx={{ m: 0, pl: 2.5 }}>
        {bookings.map((b) => {
          const busyIn = b.calendar_ids.flatMap((id) => names.get(id) ?? []);
          return (
            <li key={b.booking_id}>
              {b.session_title} · {localMoment(b.scheduled_time, zone)}
              {busyIn.length > 0 && ` · busy in ${busyIn.join(", ")}`} ·{" "}
              <Link component={RouterLink} to={`/manage-booking/${b.booking_id}`}>
                Manage this booking
              </Link>
            </li>
          );
        })}
      </Box>
    </Alert>
  );
}
