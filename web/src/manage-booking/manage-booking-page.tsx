import { useReducer } from "react";
import { useParams } from "react-router-dom";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import Alert from "@mui/material/Alert";
import { api, errorMessage } from "../shared/api-client.ts";
import type { Booking, Schedule } from "../shared/api-types.ts";
import { useDocumentTitle } from "../shared/document-title.ts";
import { LoadingScreen } from "../shared/guard.tsx";
import { Page } from "../shared/layout.tsx";
import { browserZone, dayOf } from "../shared/local-time.ts";
import { BOOKINGS_KEY } from "../shared/query-client.ts";
import { scheduleQuery } from "../expert-dashboard/dashboard-queries.ts";
import { BookingDetailStep } from "./booking-detail-step.tsx";
import { AcceptStep } from "./accept-step.tsx";
import { DoneScreen } from "./done-step.tsx";
import { initialManageState, manageReducer, type ManageStep } from "./manage-steps.ts";
import { ProposeTimeStep } from "./propose-time-step.tsx";
import { WrittenStep } from "./written-step.tsx";

export const bookingQuery = (bookingId: string) => ({
  queryKey: [...BOOKINGS_KEY, "detail", bookingId],
  queryFn: ({ signal }: { signal: AbortSignal }) => api.get<Booking>(`/bookings/${bookingId}`, { signal }),
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

function ManageBooking({ booking }: { booking: Booking }) {
  const schedule = useQuery(scheduleQuery(booking.expert_id));
  if (schedule.isPending) return <LoadingScreen />;
  return <ManageBookingSteps booking={booking} schedule={schedule.data ?? null} />;
}

export function ManageBookingSteps({ booking, schedule }: { booking: Booking; schedule: Schedule | null }) {
  const queryClient = useQueryClient();
  const zone = schedule?.timezone ?? browserZone();
  const [state, dispatch] = useReducer(manageReducer, undefined, () => initialManageState(dayOf(booking.scheduled_time, zone)));
  const creator = booking.creator_name ?? "The creator";

  const act = async (work: () => Promise<Booking>, next: ManageStep) => {
    dispatch({ type: "sending" });
    try {
      const updated = await work();
      queryClient.setQueryData(bookingQuery(booking.id).queryKey, updated);
      void queryClient.invalidateQueries({ queryKey: BOOKINGS_KEY });
      void queryClient.invalidateQueries({ queryKey: ["schedule", booking.expert_id] });
      dispatch({ type: "sent", result: updated, next });
    } catch (error) {
      dispatch({ type: "refused", failure: errorMessage(error) });
    }
  };

  const accept = () => void act(() => api.patch<Booking>(`/bookings/${booking.id}/status`, { status: "confirmed" }), "confirmation");

  const propose = () => {
    const { time } = state;
    if (!time) {
      dispatch({ type: "failed", failure: "Please choose a date and time." });
      return;
    }
    void act(() => api.patch<Booking>(`/bookings/${booking.id}/schedule`, { scheduled_time: time }), "proposed");
  };

  const requestInfo = () => {
    if (!state.note.trim()) {
      dispatch({ type: "noteError", error: "Please describe what information you need." });
      return;
    }
    dispatch({ type: "noteError", error: null });
    const body = { status: "more_info_requested", info_request_note: state.note.trim() };
    void act(() => api.patch<Booking>(`/bookings/${booking.id}/status`, body), "more-info-confirmation");
  };

  const decline = () => {
    if (!state.reason.trim()) {
      dispatch({ type: "reasonError", error: "Please tell the creator why you are declining." });
      return;
    }
    dispatch({ type: "reasonError", error: null });
    void act(() => api.patch<Booking>(`/bookings/${booking.id}/status`, { status: "cancelled", reason: state.reason.trim() }), "declined");
  };

  const failure = state.failure && (
    <Alert severity="error" role="alert" sx={{ mt: 2 }}>
      {state.failure}
    </Alert>
  );
  const back = () => dispatch({ type: "go", step: "detail" });

  switch (state.step) {
    case "confirmation":
    case "proposed":
    case "more-info-confirmation":
    case "declined":
      return <DoneScreen step={state.step} booking={booking} result={state.result} zone={zone} />;
    case "accept":
      return <AcceptStep booking={booking} zone={zone} busy={state.busy} failure={failure} onConfirm={accept} onBack={back} />;
    case "propose":
      return <ProposeTimeStep booking={booking} zone={zone} state={state} dispatch={dispatch} failure={failure} onPropose={propose} />;
    case "decline":
      return (
        <WrittenStep
          title="Decline Booking"
          intro={`${creator} will see your reason${booking.paid ? " and is refunded in full" : ""}. The time becomes free again.`}
          label="Reason for declining (shown to the creator)"
          value={state.reason}
          onChange={(reason) => dispatch({ type: "reason", reason })}
          error={state.reasonError}
          maxLength={500}
          failure={failure}
          action={{ label: "Decline Booking", color: "error", run: decline }}
          busy={state.busy}
          onBack={back}
        />
      );
    case "more-info":
      return (
        <WrittenStep
          title="Request More Info"
          intro={`Tell ${booking.creator_name ?? "the creator"} what you need to know before you accept.`}
          label="What would you like to know?"
          value={state.note}
          onChange={(note) => dispatch({ type: "note", note })}
          error={state.noteError}
          failure={failure}
          action={{ label: "Submit", color: "primary", run: requestInfo }}
          busy={state.busy}
          onBack={back}
        />
      );
    case "detail":
      return <BookingDetailStep booking={booking} zone={zone} dispatch={dispatch} failure={failure} />;
  }
}
