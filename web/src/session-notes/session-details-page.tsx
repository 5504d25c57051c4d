import { Link as RouterLink, useParams } from "react-router-dom";
import { useQuery } from "@tanstack/react-query";
import Alert from "@mui/material/Alert";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import Chip from "@mui/material/Chip";
import Link from "@mui/material/Link";
import Paper from "@mui/material/Paper";
import Typography from "@mui/material/Typography";
import { errorMessage } from "../shared/api-client.ts";
import { AddToCalendarButton, inCalendar } from "../bookings/add-to-calendar.tsx";
import { JoinSession } from "../join-link/join-session.tsx";
import { DeclinedMove } from "../reschedule/declined-move.tsx";
import { OpenMoveRequest } from "../reschedule/open-move-request.tsx";
import { mayAskToMove, RequestNewTime } from "../reschedule/request-new-time.tsx";
import { useAuth } from "../shared/auth.tsx";
import { bookingBadge } from "../bookings/booking-status.ts";
import { useDocumentTitle } from "../shared/document-title.ts";
import { LoadingScreen } from "../shared/guard.tsx";
import { Page } from "../shared/layout.tsx";
import { localMoment } from "../shared/local-time.ts";
import { PrepAnswersList } from "../book-session/prep-answers-list.tsx";
import { BookingReceipts } from "../payouts/booking-receipts.tsx";
import { bookingQuery } from "../manage-booking/manage-booking-page.tsx";
import { BookingNoShow } from "../no-shows/booking-no-show.tsx";
import { BookingConversation } from "../conversation/booking-conversation.tsx";
import { BookingReview } from "./booking-review.tsx";
import { backToBookings, ChooseBooking } from "./choose-booking.tsx";

export function SessionDetailsPage() {
  const { bookingId } = useParams();
  useDocumentTitle("Session Details");
  return <Page>{bookingId ? <SessionDetails bookingId={bookingId} /> : <ChooseBooking title="Session Details" />}</Page>;
}

function SessionDetails({ bookingId }: { bookingId: string }) {
  const auth = useAuth();
  const booking = useQuery(bookingQuery(bookingId));
  if (booking.isPending) return <LoadingScreen />;
  if (booking.isError) return <Alert severity="error">{errorMessage(booking.error)}</Alert>;
  const b = booking.data;
  const viewer = auth.user?.id === b.expert_id ? "expert" : "creator";
  const badge = bookingBadge(b.status, viewer);
  return (
    <Box sx={{ maxWidth: 760 }}>
      <Link component={RouterLink} to={backToBookings(auth.user)}>
        Back
      </Link>
      <Box sx={{ display: "flex", alignItems: "center", gap: 2, mt: 2, flexWrap: "wrap" }}>
        <Typography variant="h4" component="h1">
          Session Details
        </Typography>
        <Chip label={badge.label} color={badge.color} />
      </Box>
      <Paper variant="outlined" sx={{ p: { xs: 2, sm: 3 }, mt: 2, display: "grid", gap: 1 }}>
        <Typography>
          <strong>Session:</strong> {b.session_title} ({b.length_minutes} minutes)
        </Typography>
        <Typography>
          <strong>Creator:</strong> {b.creator_name ?? "Creator"}
        </Typography>
        <Typography>
          <strong>Expert:</strong> {b.expert_name ?? "Expert"}
        </Typography>
        <Typography>
          <strong>Time:</strong> {localMoment(b.scheduled_time)}
        </Typography>
        {b.info_request_note && (
          <Typography>
            <strong>Information requested:</strong> {b.info_request_note}
          </Typography>
        )}
      </Paper>
      <Box sx={{ display: "grid", gap: 2, mt: 2 }}>
        <OpenMoveRequest booking={b} viewer={viewer} />
        {viewer === "creator" && <DeclinedMove booking={b} />}
        {b.status === "confirmed" && <JoinSession booking={b} />}
        <BookingNoShow booking={b} />
        {viewer === "creator" && mayAskToMove(b) && <RequestNewTime booking={b} />}
      </Box>
      <Typography variant="h5" component="h2" sx={{ mt: 3, mb: 1 }}>
        Goals and preparation
      </Typography>
      <PrepAnswersList booking={b} />
      {/* Receipts of the creator's payments and refunds (issue 29.7): shown to them and admins only. */}
      <BookingReceipts booking={b} />
      <Box sx={{ display: "flex", gap: 1, flexWrap: "wrap", alignItems: "flex-start" }}>
        {inCalendar(b) && <AddToCalendarButton booking={b} size="medium" />}
        {b.has_notes && (
          <Button variant="contained" component={RouterLink} to={`/session-notes/${b.id}`}>
            View Notes
          </Button>
        )}
        {viewer === "expert" && (b.status === "confirmed" || b.status === "completed") && (
          <Button variant="outlined" component={RouterLink} to={`/add-session-notes/${b.id}`}>
            {b.has_notes ? "Edit Notes" : "Add Notes"}
          </Button>
        )}
      </Box>
      {/* A completed session's review lives here too: the creator's dashboard links its details, its notes only once written. */}
      <BookingReview booking={b} />
      {/* The creator and the expert write to each other here (issue 31.3). */}
      <BookingConversation booking={b} />
    </Box>
  );
}
