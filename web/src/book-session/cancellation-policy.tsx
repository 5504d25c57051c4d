import { useQuery } from "@tanstack/react-query";
import { FULL_REFUND_NOTICE_HOURS } from "@booking/contracts";
import Alert from "@mui/material/Alert";
import AlertTitle from "@mui/material/AlertTitle";
import { cancellationQuery } from "../bookings/cancel-booking.tsx";
import { localMoment } from "../shared/local-time.ts";

// The cancellation policy as users see it before they pay and after: the words name the
// contracts' notice period; a booked time's exact deadline comes from the API, which asks the
// calendar's policy, so the page never works it out itself.

/** For the creator: before a time is held (no booking yet) the rule in words, after it the booking's own deadline. */
export function CancellationPolicy({ bookingId, expertName }: { bookingId?: string | null; expertName?: string | null }) {
  const policy = useQuery({ ...cancellationQuery(bookingId ?? ""), enabled: !!bookingId });
  const until = bookingId && policy.data ? localMoment(policy.data.full_refund_until) : null;
  const expert = expertName ?? "your expert";
  return (
    <Alert severity="info" sx={{ my: 2 }} data-testid="cancellation-policy">
      <AlertTitle>Cancellation policy</AlertTitle>
      {until
        ? `Cancel before ${until} and you get a full refund. Later cancellations are not refunded.`
        : `Cancel at least ${FULL_REFUND_NOTICE_HOURS} hours before the session and you get a full refund. Later cancellations are not refunded.`}{" "}
      If {expert} declines or cancels, or you cancel before {expert} accepts your request, you are refunded in full.
    </Alert>
  );
}

/** For the expert managing a request: what the creator is promised. */
export function CancellationPolicyForExpert({ creatorName }: { creatorName?: string | null }) {
  const creator = creatorName ?? "The creator";
  return (
    <Alert severity="info" sx={{ mt: 2 }} data-testid="cancellation-policy">
      <AlertTitle>Cancellation policy</AlertTitle>
      {creator} can cancel for a full refund until {FULL_REFUND_NOTICE_HOURS} hours before the session; later cancellations are not
      refunded. If you decline or cancel, {creatorName ?? "the creator"} is refunded in full.
    </Alert>
  );
}
