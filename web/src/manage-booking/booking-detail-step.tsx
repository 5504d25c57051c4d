import type { Dispatch, ReactNode } from "react";
import { Link as RouterLink } from "react-router-dom";
import Alert from "@mui/material/Alert";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import Chip from "@mui/material/Chip";
import Link from "@mui/material/Link";
import Typography from "@mui/material/Typography";
import type { Booking } from "../shared/api-types.ts";
import { useAuth } from "../shared/auth.tsx";
import { bookingBadge } from "../bookings/booking-status.ts";
import { AddToCalendarButton, inCalendar } from "../bookings/add-to-calendar.tsx";
import { CancelBookingButton } from "../bookings/cancel-booking.tsx";
import { JoinSession } from "../join-link/join-session.tsx";
import { MeetingLinkForm } from "../join-link/meeting-link-form.tsx";
import { OpenMoveRequest } from "../reschedule/open-move-request.tsx";
import { localMoment } from "../shared/local-time.ts";
import { CancellationPolicyForExpert } from "../book-session/cancellation-policy.tsx";
import { PrepAnswersList } from "../book-session/prep-answers-list.tsx";
import { BookingReceipts } from "../payouts/booking-receipts.tsx";
import { BookingNoShow } from "../no-shows/booking-no-show.tsx";
import { BookingConversation } from "../conversation/booking-conversation.tsx";
import { expertActions } from "./expert-actions.ts";
import type { ManageAction } from "./manage-steps.ts";

function BackToDashboard({ label = "Back" }: { label?: string }) {
  const auth = useAuth();
  return (
    <Link component={RouterLink} to={`/expert-dashboard/${auth.user?.id ?? ""}/bookings`}>
      {label}
    </Link>
  );
}

/** The booking as the expert first sees it: who, when, the answers, and what they may do with it. */
export function BookingDetailStep(props: { booking: Booking; zone: string; dispatch: Dispatch<ManageAction>; failure: ReactNode }) {
  const { booking, zone, dispatch, failure } = props;
  const badge = bookingBadge(booking.status, "expert");
  const may = expertActions(booking);
  return (
    <Box sx={{ maxWidth: 760 }}>
      <BackToDashboard />
      <Box sx={{ display: "flex", alignItems: "center", gap: 2, flexWrap: "wrap", mt: 2 }}>
        <Typography variant="h4" component="h1">
          {booking.creator_name ?? "Creator"}
        </Typography>
        <Chip label={badge.label} color={badge.color} data-testid="manage-status" />
      </Box>
      <Typography sx={{ mt: 1 }}>
        {booking.session_title} · {localMoment(booking.scheduled_time, zone)} · {booking.paid ? "Paid" : "Awaiting payment"}
      </Typography>
      {booking.status === "more_info_requested" && booking.info_request_note && (
        <Alert severity="info" sx={{ mt: 2 }}>
          You asked: {booking.info_request_note}
        </Alert>
      )}
      {booking.status === "time_proposed" && !booking.reschedule_to && (
        <Alert severity="info" sx={{ mt: 2 }}>
          You proposed this time; waiting for {booking.creator_name ?? "the creator"} to accept it.
        </Alert>
      )}
      {/* The creator answered the proposal with another time: the request to move below is theirs. */}
      {booking.status === "time_proposed" && booking.reschedule_to && (
        <Alert severity="info" sx={{ mt: 2 }} data-testid="proposal-answered">
          You proposed another time; {booking.creator_name ?? "the creator"} asks for the time below instead. Accepting it confirms the
          session.
        </Alert>
      )}
      <Box sx={{ display: "grid", gap: 2, mt: 2, "&:empty": { display: "none" } }}>
        <OpenMoveRequest booking={booking} viewer="expert" zone={zone} />
        {booking.status === "confirmed" && <JoinSession booking={booking} />}
        <BookingNoShow booking={booking} zone={zone} />
      </Box>
      {["pending", "more_info_requested", "time_proposed", "confirmed"].includes(booking.status) && (
        <CancellationPolicyForExpert creatorName={booking.creator_name} fullRefundHours={booking.full_refund_hours} />
      )}
      {booking.status === "confirmed" && (
        <Box sx={{ mt: 3 }}>
          <MeetingLinkForm booking={booking} zone={zone} />
        </Box>
      )}
      <Typography variant="h5" component="h2" sx={{ mt: 3, mb: 1 }}>
        Preparation answers
      </Typography>
      <PrepAnswersList booking={booking} />
      {/* A paid booking's receipts, for its creator or an admin helping them (issue 29.7); nothing for the expert. */}
      <BookingReceipts booking={booking} />
      {failure}
      {may.awaitingPayment && (
        <Typography id="awaiting-payment-hint" variant="body2" color="text.secondary" sx={{ mt: 3 }}>
          {booking.creator_name ?? "The creator"} has not paid yet. You can accept once the payment arrives.
        </Typography>
      )}
      {may.proposeMissing && (
        <Typography variant="body2" color="text.secondary" sx={{ mt: 3 }}>
          {may.proposeMissing}
        </Typography>
      )}
      <Box sx={{ display: "flex", gap: 2, mt: 3, flexWrap: "wrap" }}>
        {/* A booking is accepted once paid (the server refuses before): until then it says so. */}
        {may.accept && (
          <Button variant="contained" onClick={() => dispatch({ type: "go", step: "accept" })}>
            Accept Booking
          </Button>
        )}
        {/* Beside Accept, so an expert who cannot make the time offers another instead of declining (issue 27.12). */}
        {may.propose && (
          <Button variant="outlined" onClick={() => dispatch({ type: "go", step: "propose" })}>
            Propose another time
          </Button>
        )}
        {may.awaitingPayment && (
          <Button variant="contained" disabled aria-describedby="awaiting-payment-hint">
            Awaiting payment
          </Button>
        )}
        {may.requestInfo && (
          <Button variant="outlined" onClick={() => dispatch({ type: "go", step: "more-info" })}>
            Request More Info
          </Button>
        )}
        {may.decline && (
          <Button variant="outlined" color="error" onClick={() => dispatch({ type: "go", step: "decline" })}>
            Decline
          </Button>
        )}
        {inCalendar(booking) && (
          <>
            <AddToCalendarButton booking={booking} size="medium" />
            {/* Here too, not only on the dashboard: time off lists the bookings inside it with a link to this page. */}
            {/* A no-show report settles the booking instead (issue 31.1). */}
            {!booking.no_show && <CancelBookingButton booking={booking} />}
          </>
        )}
      </Box>
      {/* The expert and the creator write to each other here (issue 31.3); "Request More Info" is a message in it too. */}
      <BookingConversation booking={booking} zone={zone} />
    </Box>
  );
}
