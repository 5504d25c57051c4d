import { useEffect, useRef, useState } from "react";
import { useQueryClient } from "@tanstack/react-query";
import Alert from "@mui/material/Alert";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import { api, ApiError, errorMessage } from "../shared/api-client.ts";
import type { Booking } from "../shared/api-types.ts";
import { clockTime } from "../shared/local-time.ts";
import { BOOKINGS_KEY } from "../shared/query-client.ts";

// Issue 27.8: an unpaid booking holds its time until the server's held_until. The payment step
// shows how long is left, lets the creator let the time go, and says when the hold ran out.

/** "14:05": minutes and seconds left, never negative. */
export function holdLeftLabel(ms: number): string {
  const seconds = Math.max(0, Math.ceil(ms / 1000));
  return `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, "0")}`;
}

/** Milliseconds until `heldUntil`, read again every second; null when there is no such time. */
export function useTimeLeft(heldUntil: string | null | undefined): number | null {
  const until = heldUntil ? Date.parse(heldUntil) : NaN;
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (Number.isNaN(until)) return;
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, [until]);
  return Number.isNaN(until) ? null : until - now;
}

/** An open unpaid hold of the creator's on this session, the one to take up again. */
export const openHoldOn = (bookings: readonly Booking[], sessionId: string, now = Date.now()): Booking | null =>
  bookings.find((b) => b.session_id === sessionId && b.status === "pending" && !b.paid && Date.parse(b.held_until) > now) ?? null;

/** Cancel an unpaid booking to free its time: null once released, else why not. Already cancelled (the hold ran out) counts as released. */
export async function releaseHold(bookingId: string): Promise<string | null> {
  try {
    await api.patch(`/bookings/${bookingId}/status`, { status: "cancelled" });
    return null;
  } catch (error) {
    return error instanceof ApiError && error.code === "booking_transition_refused" ? null : errorMessage(error);
  }
}

type HoldPanelProps = {
  booking: Booking;
  /** The hold ran out before a payment. */
  onLapsed: () => void;
  /** The creator let the time go; it is bookable again. */
  onReleased: () => void;
};

/** The countdown and "Release this time", while nothing is paid. */
export function HoldPanel({ booking, onLapsed, onReleased }: HoldPanelProps) {
  const queryClient = useQueryClient();
  const left = useTimeLeft(booking.held_until);
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const lapsed = useRef(onLapsed);
  lapsed.current = onLapsed;
  const over = left !== null && left <= 0;
  useEffect(() => {
    if (over) lapsed.current();
  }, [over]);

  const release = async () => {
    setBusy(true);
    const failed = await releaseHold(booking.id);
    setFailure(failed);
    if (failed) {
      setBusy(false);
      return;
    }
    void queryClient.invalidateQueries({ queryKey: BOOKINGS_KEY });
    void queryClient.invalidateQueries({ queryKey: ["availability", booking.session_id] });
    onReleased();
  };

  if (left === null) return null;
  return (
    <Alert
      severity="info"
      sx={{ mb: 3, maxWidth: 560 }}
      action={
        <Button color="inherit" size="small" onClick={release} disabled={busy}>
          Release this time
        </Button>
      }
    >
      <Box>
        This time is held for you until {clockTime(booking.held_until)}:{" "}
        <strong role="timer" aria-label="Time left to pay">
          {holdLeftLabel(left)}
        </strong>{" "}
        left to pay. After that it is offered to others again.
      </Box>
      {failure && (
        <Box role="alert" sx={{ mt: 1 }}>
          {failure}
        </Box>
      )}
    </Alert>
  );
}
