import { useMemo, useState, type ReactNode } from "react";
import { Link as RouterLink, useParams } from "react-router-dom";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { DateTime } from "luxon";
import { BOOKING_WINDOW_DAYS, type ProposableTimesReply } from "@booking/contracts";
import Alert from "@mui/material/Alert";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import Chip from "@mui/material/Chip";
import Link from "@mui/material/Link";
import Paper from "@mui/material/Paper";
import TextField from "@mui/material/TextField";
import Typography from "@mui/material/Typography";
import { api, errorMessage } from "../shared/api-client.ts";
import type { Booking, Schedule } from "../shared/api-types.ts";
import { useAuth } from "../shared/auth.tsx";
import { bookingBadge } from "../shared/booking-status.ts";
import { AddToCalendarButton, inCalendar } from "../shared/add-to-calendar.tsx";
import { CancelBookingButton } from "../shared/cancel-booking.tsx";
import { JoinSession } from "../join-link/join-session.tsx";
import { MeetingLinkForm } from "../join-link/meeting-link-form.tsx";
import { OpenMoveRequest } from "../reschedule/open-move-request.tsx";
import { useDocumentTitle } from "../shared/document-title.ts";
import { LoadingScreen } from "../shared/guard.tsx";
import { Page } from "../shared/layout.tsx";
import { browserZone, clockTime, dayOf, longDate, shortDateTimeWithZone, zoneLabel } from "../shared/local-time.ts";
import { MonthCalendar } from "../shared/month-calendar.tsx";
import { BOOKINGS_KEY } from "../shared/query-client.ts";
import { CancellationPolicyForExpert } from "../booking/cancellation-policy.tsx";
import { prepQuestionsOf } from "../booking/prep-answers.ts";
import { scheduleQuery } from "../expert-dashboard/dashboard-queries.ts";

type ManageStep = "detail" | "time" | "confirmation" | "proposed" | "more-info" | "more-info-confirmation" | "decline" | "declined";

export const bookingQuery = (bookingId: string) => ({
  queryKey: [...BOOKINGS_KEY, "detail", bookingId],
  queryFn: ({ signal }: { signal: AbortSignal }) => api.get<Booking>(`/bookings/${bookingId}`, { signal }),
  staleTime: 0,
  retry: false,
});

/** The times the expert may propose on one day (in their zone): the API asks the engine, which decides a proposal by the same rule. */
export const proposableTimesQuery = (bookingId: string, day: string) => ({
  queryKey: [...BOOKINGS_KEY, "proposable-times", bookingId, day],
  queryFn: ({ signal }: { signal: AbortSignal }) => api.get<ProposableTimesReply>(`/bookings/${bookingId}/proposable-times?date=${day}`, { signal }),
  staleTime: 0,
  retry: false,
});

export function ManageBookingPage() {
  const { bookingId = "" } = useParams();
  const booking = useQuery(bookingQuery(bookingId));
  useDocumentTitle("Review Booking");
  return (
    <Page>
      {booking.isPending ? (
        <LoadingScreen />
      ) : booking.isError ? (
        <Alert severity="error">Error loading booking: {errorMessage(booking.error)}</Alert>
      ) : (
        <ManageBooking booking={booking.data} />
      )}
    </Page>
  );
}

function BackToDashboard({ label = "Back" }: { label?: string }) {
  const auth = useAuth();
  return (
    <Link component={RouterLink} to={`/expert-dashboard/${auth.user?.id ?? ""}/bookings`}>
      {label}
    </Link>
  );
}

function ManageBooking({ booking }: { booking: Booking }) {
  const schedule = useQuery(scheduleQuery(booking.expert_id));
  if (schedule.isPending) return <LoadingScreen />;
  return <ManageBookingSteps booking={booking} schedule={schedule.data ?? null} />;
}

export function ManageBookingSteps({ booking, schedule }: { booking: Booking; schedule: Schedule | null }) {
  const queryClient = useQueryClient();
  const zone = schedule?.timezone ?? browserZone();
  const [step, setStep] = useState<ManageStep>("detail");
  const [day, setDay] = useState<string>(() => dayOf(booking.scheduled_time, zone));
  const [time, setTime] = useState<string | null>(booking.scheduled_time);
  const [note, setNote] = useState("");
  const [noteError, setNoteError] = useState<string | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [result, setResult] = useState<Booking | null>(null);
  const questions = prepQuestionsOf(booking);
  const answers = [booking.prep_response_1, booking.prep_response_2, booking.prep_response_3];
  const badge = bookingBadge(booking.status, "expert");
  const decidable = booking.status === "pending" || booking.status === "more_info_requested";
  // An expert may decline any request still open; a confirmed booking is cancelled instead (the dialog below).
  const declinable = decidable || booking.status === "time_proposed";
  const [reason, setReason] = useState("");
  const [reasonError, setReasonError] = useState<string | null>(null);

  const today = DateTime.now().setZone(zone).toISODate()!;
  const lastDay = DateTime.now().setZone(zone).plus({ days: BOOKING_WINDOW_DAYS }).toISODate()!;
  const proposable = useQuery({ ...proposableTimesQuery(booking.id, day), enabled: step === "time" });
  const times = useMemo(() => {
    const list = [...(proposable.data?.times ?? [])];
    // The requested time is always offered, even outside 9:00 to 5:30.
    if (dayOf(booking.scheduled_time, zone) === day && !list.some((t) => Date.parse(t) === Date.parse(booking.scheduled_time))) list.unshift(booking.scheduled_time);
    return list.sort();
  }, [day, zone, booking, proposable.data]);
  const keepsRequested = !!time && Date.parse(time) === Date.parse(booking.scheduled_time);

  const act = async (work: () => Promise<Booking>, next: ManageStep) => {
    setBusy(true);
    setFailure(null);
    try {
      const updated = await work();
      setResult(updated);
      queryClient.setQueryData(bookingQuery(booking.id).queryKey, updated);
      void queryClient.invalidateQueries({ queryKey: BOOKINGS_KEY });
      void queryClient.invalidateQueries({ queryKey: ["schedule", booking.expert_id] });
      setStep(next);
    } catch (error) {
      setFailure(errorMessage(error));
    } finally {
      setBusy(false);
    }
  };

  const confirmTime = () => {
    if (!time) {
      setFailure("Please choose a date and time.");
      return;
    }
    if (keepsRequested) void act(() => api.patch<Booking>(`/bookings/${booking.id}/status`, { status: "confirmed" }), "confirmation");
    else void act(() => api.patch<Booking>(`/bookings/${booking.id}/schedule`, { scheduled_time: time }), "proposed");
  };

  const requestInfo = () => {
    if (!note.trim()) {
      setNoteError("Please describe what information you need.");
      return;
    }
    setNoteError(null);
    void act(() => api.patch<Booking>(`/bookings/${booking.id}/status`, { status: "more_info_requested", info_request_note: note.trim() }), "more-info-confirmation");
  };

  const decline = () => {
    if (!reason.trim()) {
      setReasonError("Please tell the creator why you are declining.");
      return;
    }
    setReasonError(null);
    void act(() => api.patch<Booking>(`/bookings/${booking.id}/status`, { status: "cancelled", reason: reason.trim() }), "declined");
  };

  const failureAlert = failure && (
    <Alert severity="error" role="alert" sx={{ mt: 2 }}>
      {failure}
    </Alert>
  );

  if (step === "confirmation" || step === "proposed" || step === "more-info-confirmation" || step === "declined") {
    const title = step === "confirmation" ? "Booking Confirmed" : step === "proposed" ? "New Time Proposed" : step === "declined" ? "Booking Declined" : "Request Sent";
    const text =
      step === "confirmation"
        ? `${booking.creator_name ?? "The creator"} is booked for ${shortDateTimeWithZone(result?.scheduled_time ?? booking.scheduled_time, zone)}.`
        : step === "proposed"
          ? `We asked ${booking.creator_name ?? "the creator"} to accept ${shortDateTimeWithZone(result?.scheduled_time ?? booking.scheduled_time, zone)}.`
          : step === "declined"
            ? `${booking.creator_name ?? "The creator"} sees your reason${booking.paid ? " and is refunded in full" : ""}. The time is free again.`
            : `We asked ${booking.creator_name ?? "the creator"} for more information.`;
    return (
      <Paper variant="outlined" sx={{ p: { xs: 2, sm: 4 }, textAlign: "center" }}>
        <Typography variant="h4" component="h1" gutterBottom>
          {title}
        </Typography>
        <Typography sx={{ mb: 3 }}>{text}</Typography>
        <Button variant="contained" component={RouterLink} to={`/expert-dashboard/${booking.expert_id}/bookings`}>
          Back to your dashboard
        </Button>
      </Paper>
    );
  }

  if (step === "time") {
    return (
      <Box>
        <Typography variant="h4" component="h1" gutterBottom>
          Choose the session time
        </Typography>
        <Typography sx={{ mb: 1 }}>
          {booking.creator_name ?? "The creator"} asked for <strong>{shortDateTimeWithZone(booking.scheduled_time, zone)}</strong>. Confirm it, or propose another time for them to accept.
        </Typography>
        <Typography sx={{ mb: 2 }}>Times are shown in your timezone: {zoneLabel(zone)}</Typography>
        <Box sx={{ display: "grid", gap: 4, gridTemplateColumns: { xs: "1fr", md: "380px 1fr" } }}>
          <MonthCalendar today={today} lastDay={lastDay} selected={day} onSelect={(d) => { setDay(d); setTime(null); }} isSelectable={(d) => d >= today && d <= lastDay} label="Choose the session date" />
          <Box>
            <Typography component="h2" sx={{ fontWeight: 700, mb: 1 }}>
              {longDate(`${day}T12:00:00`, zone)}
            </Typography>
            {proposable.isError && (
              <Alert severity="error" sx={{ mb: 1 }}>
                Error loading times: {errorMessage(proposable.error)}
              </Alert>
            )}
            {proposable.isPending ? (
              <Typography role="status">Loading times…</Typography>
            ) : times.length === 0 ? (
              <Typography>No free times on this day.</Typography>
            ) : (
              <Box role="group" aria-label="Times" sx={{ display: "grid", gap: 1, gridTemplateColumns: "repeat(auto-fill, minmax(120px, 1fr))" }}>
                {times.map((t) => {
                  const requested = Date.parse(t) === Date.parse(booking.scheduled_time);
                  return (
                    <Button key={t} variant={time === t ? "contained" : "outlined"} aria-pressed={time === t} data-time={t} onClick={() => setTime(t)}>
                      {clockTime(t, zone)}
                      {requested ? " (requested)" : ""}
                    </Button>
                  );
                })}
              </Box>
            )}
          </Box>
        </Box>
        {!keepsRequested && time && (
          <Alert severity="info" sx={{ mt: 2 }}>
            {shortDateTimeWithZone(time, zone)} will be sent to {booking.creator_name ?? "the creator"} as a proposal to accept.
          </Alert>
        )}
        {failureAlert}
        <Box sx={{ display: "flex", gap: 2, mt: 3, alignItems: "center", flexWrap: "wrap" }}>
          <Button variant="contained" size="large" onClick={confirmTime} disabled={busy || !time}>
            Confirm Date & Time
          </Button>
          <Button onClick={() => setStep("detail")}>Back</Button>
        </Box>
      </Box>
    );
  }

  if (step === "decline") {
    return (
      <WrittenStep
        title="Decline Booking"
        intro={`${booking.creator_name ?? "The creator"} will see your reason${booking.paid ? " and is refunded in full" : ""}. The time becomes free again.`}
        label="Reason for declining (shown to the creator)"
        value={reason}
        onChange={setReason}
        error={reasonError}
        maxLength={500}
        failure={failureAlert}
        action={{ label: "Decline Booking", color: "error", run: decline }}
        busy={busy}
        onBack={() => setStep("detail")}
      />
    );
  }

  if (step === "more-info") {
    return (
      <WrittenStep
        title="Request More Info"
        intro={`Tell ${booking.creator_name ?? "the creator"} what you need to know before you accept.`}
        label="What would you like to know?"
        value={note}
        onChange={setNote}
        error={noteError}
        failure={failureAlert}
        action={{ label: "Submit", color: "primary", run: requestInfo }}
        busy={busy}
        onBack={() => setStep("detail")}
      />
    );
  }

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
        {booking.session_title} · {shortDateTimeWithZone(booking.scheduled_time, zone)} · {booking.paid ? "Paid" : "Awaiting payment"}
      </Typography>
      {booking.status === "more_info_requested" && booking.info_request_note && (
        <Alert severity="info" sx={{ mt: 2 }}>
          You asked: {booking.info_request_note}
        </Alert>
      )}
      {booking.status === "time_proposed" && (
        <Alert severity="info" sx={{ mt: 2 }}>
          You proposed this time; waiting for {booking.creator_name ?? "the creator"} to accept it.
        </Alert>
      )}
      <Box sx={{ display: "grid", gap: 2, mt: 2, "&:empty": { display: "none" } }}>
        <OpenMoveRequest booking={booking} viewer="expert" zone={zone} />
        {booking.status === "confirmed" && <JoinSession booking={booking} />}
      </Box>
      {booking.status !== "cancelled" && booking.status !== "completed" && <CancellationPolicyForExpert creatorName={booking.creator_name} />}
      {booking.status === "confirmed" && (
        <Box sx={{ mt: 3 }}>
          <MeetingLinkForm booking={booking} zone={zone} />
        </Box>
      )}
      <Typography variant="h5" component="h2" sx={{ mt: 3, mb: 1 }}>
        Preparation answers
      </Typography>
      <Box component="dl" sx={{ m: 0 }}>
        {questions.map((q, i) => (
          <Box key={i} sx={{ mb: 2 }}>
            <Typography component="dt" sx={{ fontWeight: 700 }}>
              {q}
            </Typography>
            <Typography component="dd" sx={{ ml: 0 }} data-testid={`prep-answer-${i + 1}`}>
              {answers[i] ?? <em>Not answered yet</em>}
            </Typography>
          </Box>
        ))}
      </Box>
      {failureAlert}
      {decidable && !booking.paid && (
        <Typography id="awaiting-payment-hint" variant="body2" color="text.secondary" sx={{ mt: 3 }}>
          {booking.creator_name ?? "The creator"} has not paid yet. You can accept once the payment arrives.
        </Typography>
      )}
      <Box sx={{ display: "flex", gap: 2, mt: 3, flexWrap: "wrap" }}>
        {/* A booking is accepted once paid (the server refuses before): until then it says so. */}
        {decidable && booking.paid && (
          <Button variant="contained" onClick={() => setStep("time")}>
            Accept Booking
          </Button>
        )}
        {decidable && !booking.paid && (
          <Button variant="contained" disabled aria-describedby="awaiting-payment-hint">
            Awaiting payment
          </Button>
        )}
        {booking.status === "pending" && (
          <Button variant="outlined" onClick={() => setStep("more-info")}>
            Request More Info
          </Button>
        )}
        {declinable && (
          <Button variant="outlined" color="error" onClick={() => setStep("decline")}>
            Decline
          </Button>
        )}
        {inCalendar(booking) && (
          <>
            <AddToCalendarButton booking={booking} size="medium" />
            {/* Here too, not only on the dashboard: time off lists the bookings inside it with a link to this page. */}
            <CancelBookingButton booking={booking} />
          </>
        )}
      </Box>
    </Box>
  );
}

/** A step where the expert writes to the creator (a question, a reason) and sends it. */
function WrittenStep(props: {
  title: string;
  intro: string;
  label: string;
  value: string;
  onChange: (value: string) => void;
  error: string | null;
  maxLength?: number;
  failure: ReactNode;
  action: { label: string; color: "primary" | "error"; run: () => void };
  busy: boolean;
  onBack: () => void;
}) {
  return (
    <Box sx={{ maxWidth: 640 }}>
      <Typography variant="h4" component="h1" gutterBottom>
        {props.title}
      </Typography>
      <Typography sx={{ mb: 2 }}>{props.intro}</Typography>
      <TextField
        label={props.label}
        value={props.value}
        onChange={(e) => props.onChange(e.target.value)}
        multiline
        minRows={3}
        fullWidth
        required
        {...(props.maxLength && { slotProps: { htmlInput: { maxLength: props.maxLength } } })}
        error={!!props.error}
        helperText={props.error ?? undefined}
      />
      {props.failure}
      <Box sx={{ display: "flex", gap: 2, mt: 2 }}>
        <Button variant="contained" color={props.action.color} onClick={props.action.run} disabled={props.busy}>
          {props.action.label}
        </Button>
        <Button onClick={props.onBack}>Back</Button>
      </Box>
    </Box>
  );
}
