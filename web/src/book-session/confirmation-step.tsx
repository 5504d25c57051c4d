import { useEffect, useRef } from "react";
import { Link as RouterLink } from "react-router-dom";
import { useQuery } from "@tanstack/react-query";
import Button from "@mui/material/Button";
import Paper from "@mui/material/Paper";
import Typography from "@mui/material/Typography";
import CheckCircleIcon from "@mui/icons-material/CheckCircle";
import HourglassTopIcon from "@mui/icons-material/HourglassTop";
import { api } from "../shared/api-client.ts";
import type { Booking } from "../shared/api-types.ts";
import { useAuth } from "../shared/auth.tsx";
import { localMoment } from "../shared/local-time.ts";
import { CancellationPolicy } from "./cancellation-policy.tsx";
import { useBookingFlow } from "./booking-flow.tsx";

// Issue 27.6: only a booking the expert has accepted (or an instant booking, accepted on payment)
// is "Confirmed"; a paid request says until when the expert may accept and what happens otherwise.

/** What the creator is told has happened, from the booking's own status and deadline. */
export function outcomeOf(booking: Pick<Booking, "status" | "respond_by" | "expert_name" | "session"> | null): {
  confirmed: boolean;
  heading: string;
  detail: string;
} {
  if (booking?.status === "confirmed")
    return { confirmed: true, heading: "Confirmed", detail: "Your session is booked. You can follow it on your dashboard." };
  const expert = booking?.session?.expertFirstName ?? booking?.expert_name ?? "Your expert";
  const detail = booking?.respond_by
    ? `${expert} has until ${localMoment(booking.respond_by)} to accept. If ${expert} does not accept by then, ` +
      `the request is cancelled and everything you paid is refunded in full, automatically.`
    : `${expert} will review your request and your answers. You can follow it on your dashboard.`;
  return { confirmed: false, heading: "Request sent", detail };
}

export function ConfirmationStep() {
  const flow = useBookingFlow();
  const auth = useAuth();
  const heading = useRef<HTMLHeadingElement>(null);
  // Read again: an instant booking is confirmed by its payment, after the flow last heard of it.
  const fresh = useQuery({
    queryKey: ["booking", flow.bookingId],
    queryFn: ({ signal }) => api.get<Booking>(`/bookings/${flow.bookingId}`, { signal }),
    enabled: !!flow.bookingId,
    retry: false,
    staleTime: 0,
  });
  const booking = fresh.data ?? flow.bookingData;
  const outcome = outcomeOf(booking);
  useEffect(() => {
    heading.current?.focus();
  }, []);
  return (
    <Paper variant="outlined" sx={{ p: { xs: 2, sm: 4 }, textAlign: "center" }}>
      {outcome.confirmed ? (
        <CheckCircleIcon color="success" sx={{ fontSize: 56 }} aria-hidden="true" data-testid="outcome-confirmed" />
      ) : (
        <HourglassTopIcon color="info" sx={{ fontSize: 56 }} aria-hidden="true" data-testid="outcome-request-sent" />
      )}
      <Typography variant="h4" component="h2" gutterBottom tabIndex={-1} ref={heading}>
        {outcome.heading}
      </Typography>
      {booking && (
        <Typography sx={{ mb: 1 }}>
          {booking.session_title} with {booking.expert_name ?? "your expert"} on {localMoment(booking.scheduled_time)}
        </Typography>
      )}
      <Typography sx={{ mb: 3 }}>{outcome.detail}</Typography>
      <CancellationPolicy bookingId={flow.bookingId} expertName={booking?.session?.expertFirstName} terms={booking} />
      <Button variant="contained" component={RouterLink} to={`/creator-dashboard/${auth.user?.id ?? ""}`}>
        Go to your dashboard
      </Button>
    </Paper>
  );
}
