import Alert from "@mui/material/Alert";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import TextField from "@mui/material/TextField";
import Typography from "@mui/material/Typography";
import { useState } from "react";
import { api } from "../shared/api-client.ts";
import type { Booking } from "../shared/api-types.ts";
import { browserZone, localMoment } from "../shared/local-time.ts";
import { useBookingAction } from "./booking-action.ts";

type Asked = Pick<Booking, "id" | "scheduled_time" | "reschedule_to" | "creator_name" | "expert_name">;

/**
 * A request to move the booking that waits for the expert: the creator sees what they asked and may
 * withdraw it; the expert accepts, or declines saying why if they wish (the creator's mail carries
 * it). Nothing when none is open.
 */
export function OpenMoveRequest({
  booking,
  viewer,
  zone = browserZone(),
}: {
  booking: Asked;
  viewer: "creator" | "expert";
  zone?: string;
}) {
  const action = useBookingAction();
  const [declining, setDeclining] = useState(false);
  const [reason, setReason] = useState("");
  if (!booking.reschedule_to) return null;
  const to = localMoment(booking.reschedule_to, zone);
  const from = localMoment(booking.scheduled_time, zone);
  const answer = (path: "withdraw" | "accept" | "decline", body?: { reason?: string }) =>
    void action.run(() => api.post<Booking>(`/bookings/${booking.id}/reschedule/${path}`, body));
  const decline = () => answer("decline", reason.trim() ? { reason: reason.trim() } : {});
  return (
    <Alert
      severity={viewer === "expert" ? "warning" : "info"}
      role="region"
      aria-label="Request to move this session"
      data-testid="move-request"
    >
      <Typography>
        {viewer === "creator" ? (
          <>
            You asked to move this session to <strong>{to}</strong>. It stays at {from} until {booking.expert_name ?? "your expert"}{" "}
            accepts.
          </>
        ) : (
          <>
            {booking.creator_name ?? "The creator"} asks to move this session to <strong>{to}</strong> (now {from}). Both times are held
            until you answer.
          </>
        )}
      </Typography>
      <Box sx={{ display: "flex", gap: 1, flexWrap: "wrap", mt: 1 }}>
        {viewer === "creator" ? (
          <Button size="small" variant="outlined" color="inherit" onClick={() => answer("withdraw")} disabled={action.busy}>
            Withdraw request
          </Button>
        ) : declining ? (
          <Box sx={{ display: "grid", gap: 1, width: "100%", maxWidth: 480 }}>
            <TextField
              size="small"
              label="Reason (optional, shown to the creator)"
              value={reason}
              onChange={(e) => setReason(e.target.value)}
              multiline
              minRows={2}
              slotProps={{ htmlInput: { maxLength: 500 } }}
            />
            <Box sx={{ display: "flex", gap: 1, flexWrap: "wrap" }}>
              <Button size="small" variant="contained" color="error" onClick={decline} disabled={action.busy}>
                Decline request
              </Button>
              <Button size="small" variant="text" color="inherit" onClick={() => setDeclining(false)} disabled={action.busy}>
                Back
              </Button>
            </Box>
          </Box>
        ) : (
          <>
            <Button size="small" variant="contained" onClick={() => answer("accept")} disabled={action.busy}>
              Accept new time
            </Button>
            <Button size="small" variant="outlined" color="inherit" onClick={() => setDeclining(true)} disabled={action.busy}>
              Decline
            </Button>
          </>
        )}
      </Box>
      {action.failure && (
        <Typography role="alert" color="error" variant="body2" sx={{ mt: 1 }}>
          {action.failure}
        </Typography>
      )}
    </Alert>
  );
}
