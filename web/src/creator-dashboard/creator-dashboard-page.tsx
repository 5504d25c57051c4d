import { useState, type ReactNode } from "react";
import { Link as RouterLink } from "react-router-dom";
import { useInfiniteQuery, useQueryClient } from "@tanstack/react-query";
import Alert from "@mui/material/Alert";
import Avatar from "@mui/material/Avatar";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import Card from "@mui/material/Card";
import CardContent from "@mui/material/CardContent";
import Chip from "@mui/material/Chip";
import Typography from "@mui/material/Typography";
import { api, errorMessage } from "../shared/api-client.ts";
import type { Booking } from "../shared/api-types.ts";
import { bookingBadge, prepAnswered } from "../bookings/booking-status.ts";
import { arrangeBookings } from "../bookings/booking-order.ts";
import { AddToCalendarButton, inCalendar } from "../bookings/add-to-calendar.tsx";
import { JoinSession } from "../join-link/join-session.tsx";
import { DeclinedMove } from "../reschedule/declined-move.tsx";
import { OpenMoveRequest } from "../reschedule/open-move-request.tsx";
import { mayAskToMove, RequestNewTime } from "../reschedule/request-new-time.tsx";
import { CancelBookingButton, RELEASE } from "../bookings/cancel-booking.tsx";
import { bookingPagesQuery } from "../bookings/booking-pages.ts";
import { OlderBookings } from "../bookings/older-bookings.tsx";
import { useDocumentTitle } from "../shared/document-title.ts";
import { LoadingScreen } from "../shared/guard.tsx";
import { Page } from "../shared/layout.tsx";
import { browserZone, localMoment, zoneLabel } from "../shared/local-time.ts";
import { BOOKINGS_KEY } from "../shared/query-client.ts";
import { useDashboardSubject } from "../shared/dashboard-subject.ts";
import { AdminViewingNotice } from "../shared/admin-viewing-notice.tsx";
import { PrepAnswersForm } from "../book-session/prep-answers-form.tsx";
import { prepQuestionsOf } from "../book-session/prep-answers.ts";
import { initials } from "../experts/expert-card.tsx";
import { BookingNoShow } from "../no-shows/booking-no-show.tsx";
import { useUnreadMessages } from "../conversation/conversation-queries.ts";
import { BookingMessagesLink, UnreadMessagesBadge } from "../conversation/unread-badges.tsx";
import { moneyLine } from "./booking-money.ts";

function BookingCard({ booking, unread }: { booking: Booking; unread: number | null }) {
  const queryClient = useQueryClient();
  const [answering, setAnswering] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const badge = bookingBadge(booking.status, "creator");
  // Still to happen: cancelled, completed and no-show bookings have nothing left to cancel.
  const open = ["pending", "more_info_requested", "time_proposed", "confirmed"].includes(booking.status);
  const awaitingPayment = booking.status === "pending" && !booking.paid;
  const canAnswer = !awaitingPayment && ["pending", "more_info_requested", "time_proposed", "confirmed"].includes(booking.status);

  const acceptTime = async () => {
    setBusy(true);
    setFailure(null);
    try {
      await api.patch(`/bookings/${booking.id}/status`, { status: "confirmed" });
      await queryClient.invalidateQueries({ queryKey: BOOKINGS_KEY });
    } catch (error) {
      setFailure(errorMessage(error));
    } finally {
      setBusy(false);
    }
  };

  return (
    <Card
      component="article"
      variant="outlined"
      data-testid="creator-booking"
      data-booking-id={booking.id}
      aria-label={`${booking.session_title} with ${booking.expert_name ?? "your expert"}`}
    >
      <CardContent sx={{ display: "grid", gap: 1.5 }}>
        <Box sx={{ display: "flex", alignItems: "center", gap: 1.5, flexWrap: "wrap" }}>
          {booking.expert_image ? (
            <Avatar src={booking.expert_image} alt="" />
          ) : (
            <Avatar sx={{ bgcolor: "primary.main" }} aria-hidden="true">
              {initials(booking.expert_name ?? "?")}
            </Avatar>
          )}
          <Box sx={{ flexGrow: 1 }}>
            <Typography component="h3" variant="h6">
              {booking.session_title}
            </Typography>
            <Typography color="text.secondary">with {booking.expert_name ?? "your expert"}</Typography>
          </Box>
          <Chip label={badge.label} color={badge.color} data-testid="booking-status" />
        </Box>
        <Typography data-testid="booking-time">
          {booking.status === "time_proposed" ? "Proposed time: " : ""}
          <strong>{localMoment(booking.scheduled_time)}</strong>
          {booking.status === "time_proposed" && booking.previous_time && <> (you asked for {localMoment(booking.previous_time)})</>}
        </Typography>
        {booking.status === "pending" && (
          <Typography variant="body2" color="text.secondary">
            {booking.paid
              ? "Paid · awaiting the expert's confirmation"
              : `Awaiting payment · the time is held for you until ${localMoment(booking.held_until)}`}
          </Typography>
        )}
        {booking.status === "confirmed" && booking.confirmed_at && (
          <Typography variant="body2" color="text.secondary" data-testid="booking-confirmed-at">
            Confirmed on {localMoment(booking.confirmed_at)}
          </Typography>
        )}
        {booking.status === "cancelled" && (
          <Typography variant="body2" color="text.secondary">
            Cancelled
            {booking.cancelled_by === "creator"
              ? " by you"
              : booking.cancelled_by === "expert"
                ? " by the expert"
                : booking.cancel_reason === "payment_timeout"
                  ? " (not paid in time)"
                  : ""}
            {booking.cancelled_at ? ` on ${localMoment(booking.cancelled_at)}` : ""}
          </Typography>
        )}
        {moneyLine(booking) && (
          <Typography variant="body2" data-testid="booking-money">
            {moneyLine(booking)}
          </Typography>
        )}
        {/* The expert's own words when they declined (system reasons are codes, said above). */}
        {booking.status === "cancelled" && booking.cancelled_by === "expert" && booking.cancel_reason && (
          <Alert severity="info">
            {booking.session.expertFirstName ?? "Your expert"} declined: {booking.cancel_reason}
          </Alert>
        )}
        {booking.status === "more_info_requested" && (
          <Alert severity="warning">
            {booking.session.expertFirstName ?? "Your expert"} asked: {booking.info_request_note}
          </Alert>
        )}
        {booking.status === "time_proposed" && (
          <Alert severity="info">
            {booking.session.expertFirstName ?? "Your expert"} proposed another time. Accept it to confirm your session.
          </Alert>
        )}
        <OpenMoveRequest booking={booking} viewer="creator" />
        <DeclinedMove booking={booking} />
        {booking.status === "confirmed" && <JoinSession booking={booking} />}
        <BookingNoShow booking={booking} />
        {failure && (
          <Alert severity="error" role="alert">
            {failure}
          </Alert>
        )}
        <Box sx={{ display: "flex", gap: 1, flexWrap: "wrap" }}>
          {awaitingPayment && (
            // Back into the booking wizard's payment step for this booking.
            <Button
              variant="contained"
              size="small"
              component={RouterLink}
              to={`/book-session/${booking.session_id}?booking=${booking.id}`}
            >
              Complete payment
            </Button>
          )}
          {booking.status === "time_proposed" && (
            <Button variant="contained" size="small" onClick={acceptTime} disabled={busy}>
              Accept New Time
            </Button>
          )}
          {canAnswer && (booking.status === "more_info_requested" || !prepAnswered(booking)) && !answering && (
            <Button
              variant={booking.status === "more_info_requested" ? "contained" : "outlined"}
              size="small"
              onClick={() => setAnswering(true)}
            >
              {booking.status === "more_info_requested" ? "Answer" : "Answer Preparation Questions"}
            </Button>
          )}
          {booking.has_notes && (
            <Button size="small" component={RouterLink} to={`/session-notes/${booking.id}`}>
              View Notes
            </Button>
          )}
          {["confirmed", "completed", "expert_no_show", "creator_no_show"].includes(booking.status) && (
            <Button size="small" component={RouterLink} to={`/session-details/${booking.id}`}>
              Session Details
            </Button>
          )}
          {/* The booking's conversation is on its Session Details (issue 31.3); an admin looking has no counts of theirs. */}
          {unread !== null && (
            <BookingMessagesLink
              to={`/session-details/${booking.id}`}
              unread={unread}
              describes={`${booking.session_title} with ${booking.expert_name ?? "your expert"}`}
            />
          )}
          {inCalendar(booking) && <AddToCalendarButton booking={booking} />}
          {/* A no-show report settles the booking instead (issue 31.1). */}
          {open && !booking.no_show && <CancelBookingButton booking={booking} wording={awaitingPayment ? RELEASE : undefined} />}
        </Box>
        {mayAskToMove(booking) && <RequestNewTime booking={booking} />}
        {answering && (
          <Box sx={{ borderTop: 1, borderColor: "divider", pt: 2 }}>
            <PrepAnswersForm
              bookingId={booking.id}
              questions={prepQuestionsOf(booking)}
              initial={[booking.prep_response_1, booking.prep_response_2, booking.prep_response_3]}
              submitLabel="Send Answers"
              onSubmitted={() => {
                setAnswering(false);
                void queryClient.invalidateQueries({ queryKey: BOOKINGS_KEY });
              }}
            />
          </Box>
        )}
      </CardContent>
    </Card>
  );
}

/** `end`: what closes the history, the way to older bookings. */
function BookingSections({
  bookings,
  unread,
  end,
}: {
  bookings: Booking[];
  unread: ((bookingId: string) => number) | null;
  end: ReactNode;
}) {
  const { upcoming, past } = arrangeBookings(bookings, Date.now(), "creator");
  return (
    <Box sx={{ display: "grid", gap: 4 }}>
      <Box component="section" aria-labelledby="upcoming-heading" sx={{ display: "grid", gap: 2 }}>
        <Typography id="upcoming-heading" variant="h5" component="h2">
          Upcoming
        </Typography>
        {upcoming.length === 0 ? (
          <Typography color="text.secondary">Nothing coming up.</Typography>
        ) : (
          upcoming.map((b) => <BookingCard key={b.id} booking={b} unread={unread?.(b.id) ?? null} />)
        )}
      </Box>
      {past.length > 0 && (
        <Box component="section" aria-labelledby="past-heading" sx={{ display: "grid", gap: 2 }}>
          <Typography id="past-heading" variant="h5" component="h2">
            Past and cancelled
          </Typography>
          {past.map((b) => (
            <BookingCard key={b.id} booking={b} unread={unread?.(b.id) ?? null} />
          ))}
        </Box>
      )}
      {end}
    </Box>
  );
}

export function CreatorDashboardPage() {
  useDocumentTitle("Your Bookings");
  const subject = useDashboardSubject();
  const bookings = useInfiniteQuery(bookingPagesQuery("creator", subject.who));
  const unread = useUnreadMessages(!subject.byAdmin);
  return (
    <Page>
      <Box sx={{ display: "flex", alignItems: "center", justifyContent: "space-between", gap: 2, flexWrap: "wrap", mb: 1 }}>
        <Typography variant="h4" component="h1">
          {subject.byAdmin ? "Creator's Bookings" : "Your Bookings"}
        </Typography>
        {!subject.byAdmin && <UnreadMessagesBadge total={unread.total} />}
      </Box>
      {subject.byAdmin && <AdminViewingNotice />}
      <Typography color="text.secondary" sx={{ mb: 3 }}>
        Times are shown in {zoneLabel(browserZone())}.
      </Typography>
      {bookings.isPending ? (
        <LoadingScreen />
      ) : bookings.isError ? (
        <Alert severity="error">Your bookings could not be loaded.</Alert>
      ) : bookings.data.bookings.length === 0 ? (
        <Box>
          <Typography sx={{ mb: 2 }}>You have no bookings yet.</Typography>
          <Button variant="contained" component={RouterLink} to="/search">
            Find an expert
          </Button>
        </Box>
      ) : (
        <BookingSections
          bookings={bookings.data.bookings}
          unread={subject.byAdmin ? null : unread.of}
          // Older pages hold only past bookings, so their button ends the history.
          end={<OlderBookings list={bookings} />}
        />
      )}
    </Page>
  );
}
