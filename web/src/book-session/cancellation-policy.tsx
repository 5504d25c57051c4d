import { useQuery } from "@tanstack/react-query";
import { FULL_REFUND_NOTICE_HOURS } from "@booking/contracts";
import Alert from "@mui/material/Alert";
import AlertTitle from "@mui/material/AlertTitle";
import { cancellationQuery } from "../bookings/cancel-booking.tsx";
import type { Session } from "../shared/api-types.ts";
import { localMoment } from "../shared/local-time.ts";

// The cancellation policy as users see it before they pay and after: the words name the session's
// own cut-offs (issue 31.4: the expert chooses them per session; a booking keeps the ones it was
// made under); a booked time's exact deadline comes from the API, which asks the calendar's
// policy, so the page never works it out itself.

/** A session's cut-offs, or the terms a booking was made under. */
export type CutOffTerms = Partial<Pick<Session, "full_refund_hours" | "reschedule_hours">>;

/** The full-refund rule in words, for a session's (or booking's) own cut-off. */
export const fullRefundRule = (hours: number = FULL_REFUND_NOTICE_HOURS) =>
  `Cancel at least ${hours} hours before the session and you get a full refund. Later cancellations are not refunded.`;

/** The move rule in words, for a session's (or booking's) own cut-off. */
export const moveRule = (hours: number) => `You can ask to move it until ${hours} hours before the start.`;

/**
 * For the creator: before a time is held (no booking yet) the rule in words, after it the booking's own deadline;
 * `terms`: the session's cut-offs before a booking, the booking's after.
 */
export function CancellationPolicy({
  bookingId,
  expertName,
  terms,
}: {
  bookingId?: string | null;
  expertName?: string | null;
  terms?: CutOffTerms | null;
}) {
  const policy = useQuery({ ...cancellationQuery(bookingId ?? ""), enabled: !!bookingId });
  const until = bookingId && policy.data ? localMoment(policy.data.full_refund_until) : null;
  const expert = expertName ?? "your expert";
  return (
    <Alert severity="info" sx={{ my: 2 }} data-testid="cancellation-policy">
      <AlertTitle>Cancellation policy</AlertTitle>
      {until
        ? `Cancel before ${until} and you get a full refund. Later cancellations are not refunded.`
        : fullRefundRule(terms?.full_refund_hours)}{" "}
      If {expert} declines or cancels, or you cancel before {expert} accepts your request, you are refunded in full.
      {terms?.reschedule_hours !== undefined && ` ${moveRule(terms.reschedule_hours)}`}
    </Alert>
  );
}

/** For the expert managing a request: what the creator is promised; `fullRefundHours`: the booking's own cut-off (issue 31.4). */
export function CancellationPolicyForExpert({
  creatorName,
  fullRefundHours = FULL_REFUND_NOTICE_HOURS,
}: {
  creatorName?: string | null;
  fullRefundHours?: number;
}) {
  const creator = creatorName ?? "The creator";
  return (
    <Alert severity="info" sx={{ mt: 2 }} data-testid="cancellation-policy">
      <AlertTitle>Cancellation policy</AlertTitle>
      {creator} can cancel for a full refund until {fullRefundHours} hours before the session; later cancellations are not refunded. If you
      decline or cancel, {creatorName ?? "the creator"} is refunded in full.
    </Alert>
  );
}
