import { useState } from "react";
import { Link as RouterLink, useNavigate } from "react-router-dom";
import { useQueryClient } from "@tanstack/react-query";
import Alert from "@mui/material/Alert";
import Avatar from "@mui/material/Avatar";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import Chip from "@mui/material/Chip";
import Table from "@mui/material/Table";
import TableBody from "@mui/material/TableBody";
import TableCell from "@mui/material/TableCell";
import TableContainer from "@mui/material/TableContainer";
import TableHead from "@mui/material/TableHead";
import TableRow from "@mui/material/TableRow";
import Paper from "@mui/material/Paper";
import Typography from "@mui/material/Typography";
import useMediaQuery from "@mui/material/useMediaQuery";
import { api, errorMessage } from "../shared/api-client.ts";
import type { Booking } from "../shared/api-types.ts";
import { useAuth } from "../shared/auth.tsx";
import { arrangeBookings } from "../bookings/booking-order.ts";
import { AddToCalendarButton } from "../bookings/add-to-calendar.tsx";
import { bookingBadge } from "../bookings/booking-status.ts";
import { CancelBookingButton } from "../bookings/cancel-booking.tsx";
import { OlderBookings } from "../bookings/older-bookings.tsx";
import { LoadingScreen } from "../shared/guard.tsx";
import { browserZone, localMoment } from "../shared/local-time.ts";
import { BOOKINGS_KEY } from "../shared/query-client.ts";
import { initials } from "../experts/expert-card.tsx";
import { useDashboardSubject } from "../shared/dashboard-subject.ts";
import { useUnreadMessages } from "../conversation/conversation-queries.ts";
import { BookingMessagesLink } from "../conversation/unread-badges.tsx";
import { useExpertBookings, useSchedule } from "./dashboard-queries.ts";

function BookingActions({ booking }: { booking: Booking }) {
  const queryClient = useQueryClient();
  const subject = useDashboardSubject();
  // The expert's own counts (issue 31.3); an admin looking at the dashboard has none of theirs to show.
  const unread = useUnreadMessages(!subject.byAdmin);
  const [error, setError] = useState<string | null>(null);
  const ended = Date.parse(booking.scheduled_time) + booking.length_minutes * 60_000 <= Date.now();
  const complete = async () => {
    try {
      await api.patch(`/bookings/${booking.id}/status`, { status: "completed" });
      await queryClient.invalidateQueries({ queryKey: BOOKINGS_KEY });
    } catch (e) {
      setError(errorMessage(e));
    }
  };
  const link = (to: string, label: string) => (
    <Button
      size="small"
      component={RouterLink}
      to={to}
      aria-label={`${label}: ${booking.session_title} with ${booking.creator_name ?? "creator"}`}
    >
      {label}
    </Button>
  );
  return (
    <Box sx={{ display: "flex", flexWrap: "wrap", gap: 0.5 }}>
      {(booking.status === "pending" || booking.status === "time_proposed" || booking.status === "more_info_requested") && (
        <>
          {link(`/manage-booking/${booking.id}`, "Review Booking")}
          <CancelBookingButton booking={booking} />
        </>
      )}
      {booking.status === "confirmed" && (
        <>
          {/* Where a request to move it is answered and its meeting link set. */}
          {link(`/manage-booking/${booking.id}`, booking.reschedule_to ? "Review Move Request" : "Manage Booking")}
          {link(`/session-details/${booking.id}`, "Session Details")}
          <AddToCalendarButton booking={booking} />
          {booking.has_notes ? link(`/session-notes/${booking.id}`, "View Notes") : link(`/add-session-notes/${booking.id}`, "Add Notes")}
          {ended && (
            <Button size="small" onClick={complete}>
              Mark Complete
            </Button>
          )}
          <CancelBookingButton booking={booking} />
        </>
      )}
      {booking.status === "completed" &&
        (booking.has_notes ? link(`/session-notes/${booking.id}`, "View Notes") : link(`/add-session-notes/${booking.id}`, "Add Notes"))}
      {/* The booking's conversation is on Manage Booking. */}
      {!subject.byAdmin && (
        <BookingMessagesLink
          to={`/manage-booking/${booking.id}`}
          unread={unread.of(booking.id)}
          describes={`${booking.session_title} with ${booking.creator_name ?? "creator"}`}
        />
      )}
      {error && (
        <Typography role="alert" color="error" variant="body2">
          {error}
        </Typography>
      )}
    </Box>
  );
}

function BookingTime({ booking, zone }: { booking: Booking; zone: string }) {
  return (
    <>
      {localMoment(booking.scheduled_time, zone)}
      {booking.status === "time_proposed" && (
        <Typography variant="body2" color="text.secondary">
          Proposed, awaiting the creator
        </Typography>
      )}
      {booking.status === "pending" && !booking.paid && (
        <Typography variant="body2" color="text.secondary">
          Awaiting payment
        </Typography>
      )}
      {booking.reschedule_to && (
        <Typography variant="body2" color="warning.dark">
          Asks to move to {localMoment(booking.reschedule_to, zone)}
        </Typography>
      )}
    </>
  );
}

function CreatorName({ booking }: { booking: Booking }) {
  return (
    <Box sx={{ display: "flex", alignItems: "center", gap: 1 }}>
      <Avatar sx={{ width: 32, height: 32, fontSize: 14, bgcolor: "secondary.main" }} aria-hidden="true">
        {initials(booking.creator_name ?? "?")}
      </Avatar>
      {booking.creator_name ?? "Creator"}
    </Box>
  );
}

function BookingList({ bookings, label, zone, phone }: { bookings: Booking[]; label: string; zone: string; phone: boolean }) {
  if (phone) {
    return (
      <Box component="ul" aria-label={label} sx={{ listStyle: "none", p: 0, m: 0, display: "grid", gap: 2 }}>
        {bookings.map((b) => {
          const badge = bookingBadge(b.status, "expert");
          return (
            <Paper
              component="li"
              variant="outlined"
              key={b.id}
              data-testid="expert-booking"
              data-booking-id={b.id}
              sx={{ p: 2, display: "grid", gap: 1 }}
            >
              <Box sx={{ display: "flex", justifyContent: "space-between", alignItems: "center", gap: 1 }}>
                <CreatorName booking={b} />
                <Chip size="small" label={badge.label} color={badge.color} data-testid="booking-status" />
              </Box>
              <Typography sx={{ fontWeight: 600 }}>{b.session_title}</Typography>
              <Box data-testid="booking-time">
                <BookingTime booking={b} zone={zone} />
              </Box>
              <BookingActions booking={b} />
            </Paper>
          );
        })}
      </Box>
    );
  }
  return (
    <TableContainer>
      <Table aria-label={label}>
        <TableHead>
          <TableRow>
            <TableCell>Creator</TableCell>
            <TableCell>Session</TableCell>
            <TableCell>Time</TableCell>
            <TableCell>Status</TableCell>
            <TableCell>Actions</TableCell>
          </TableRow>
        </TableHead>
        <TableBody>
          {bookings.map((b) => {
            const badge = bookingBadge(b.status, "expert");
            return (
              <TableRow key={b.id} data-testid="expert-booking" data-booking-id={b.id}>
                <TableCell>
                  <CreatorName booking={b} />
                </TableCell>
                <TableCell>{b.session_title}</TableCell>
                <TableCell data-testid="booking-time">
                  <BookingTime booking={b} zone={zone} />
                </TableCell>
                <TableCell>
                  <Chip size="small" label={badge.label} color={badge.color} data-testid="booking-status" />
                </TableCell>
                <TableCell>
                  <BookingActions booking={b} />
                </TableCell>
              </TableRow>
            );
          })}
        </TableBody>
      </Table>
    </TableContainer>
  );
}

/**
 * The notice over the list: who asks for what when one booking needs the expert, how many of each
 * kind when several do (issue 27.16: "a new session request" was said with three waiting).
 */
export function needsActionNotice(needsAction: readonly Booking[]): string {
  const [only] = needsAction;
  if (needsAction.length === 1 && only) {
    return only.reschedule_to
      ? `${only.creator_name ?? "A creator"} asks to move a session.`
      : `You have a new session request from ${only.creator_name ?? "a creator"}.`;
  }
  const moves = needsAction.filter((b) => b.reschedule_to).length;
  const requests = needsAction.length - moves;
  const parts = [
    requests ? `${requests} new session request${requests === 1 ? "" : "s"}` : null,
    moves ? `${moves} request${moves === 1 ? "" : "s"} to move a session` : null,
  ].filter((p): p is string => p !== null);
  return `You have ${parts.join(" and ")}.`;
}

export function BookingsTab() {
  const auth = useAuth();
  const navigate = useNavigate();
  const subject = useDashboardSubject();
  const bookings = useExpertBookings(subject.who);
  const schedule = useSchedule(subject.byAdmin ? subject.who : (auth.user?.expert_id ?? null));
  const zone = schedule.data?.timezone ?? browserZone();
  const phone = useMediaQuery("(max-width:599px)");
  if (bookings.isPending) return <LoadingScreen />;
  if (bookings.isError) return <Alert severity="error">Your bookings could not be loaded.</Alert>;
  const { needsAction, upcoming, past } = arrangeBookings(bookings.data.bookings, Date.now(), "expert");
  const newRequest = needsAction[0];
  const sections = [
    { label: "Needs your action", list: needsAction },
    { label: "Upcoming", list: upcoming },
    { label: "Past and cancelled", list: past },
  ].filter((s) => s.list.length > 0);
  return (
    <Box>
      {newRequest && (
        <Alert
          severity="info"
          sx={{ mb: 2 }}
          action={
            <Button color="inherit" onClick={() => navigate(`/manage-booking/${newRequest.id}`)}>
              View Request
            </Button>
          }
        >
          {needsActionNotice(needsAction)}
        </Alert>
      )}
      {bookings.data.bookings.length === 0 ? (
        <Typography>Your bookings will appear here once creators book your sessions.</Typography>
      ) : (
        <Box sx={{ display: "grid", gap: 4 }}>
          {sections.map((s) => (
            <Box component="section" key={s.label} aria-label={s.label}>
              <Typography variant="h5" component="h2" gutterBottom>
                {s.label}
              </Typography>
              <BookingList bookings={s.list} label={s.label} zone={zone} phone={phone} />
            </Box>
          ))}
          {/* Older pages hold only past bookings: their button ends the history, the last section. */}
          <OlderBookings list={bookings} />
        </Box>
      )}
    </Box>
  );
}
