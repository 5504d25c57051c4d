import Alert from "@mui/material/Alert";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import Typography from "@mui/material/Typography";
import { api } from "../shared/api-client.ts";
import type { Booking } from "../shared/api-types.ts";
import { browserZone, shortDateTimeWithZone } from "../shared/local-time.ts";
import { useBookingAction } from "./booking-action.ts";

type Asked = Pick<Booking, "id" | "scheduled_time" | "reschedule_to" | "creator_name" | "expert_name">;

/**
 * A request to move the booking that waits for the expert: the creator sees what they asked and may
 * withdraw it; the expert accepts or declines. Nothing when none is open.
 */
export function OpenMoveRequest({ booking, viewer, zone = browserZone() }: { booking: Asked; viewer: "creator" | "expert"; zone?: string }) {
  const action = useBookingAction();
  if (!booking.reschedule_to) return null;
  const to = shortDateTimeWithZone(booking.reschedule_to, zone);
  const from = shortDateTimeWithZone(booking.scheduled_time, zone);
  const answer = (path: "withdraw" | "accept" | "decline") => void action.run(() => api.post<Booking>(`/bookings/${booking.id}/reschedule/${path}`));
  return (
    <Alert severity={viewer === "expert" ? "warning" : "info"} role="region" aria-label="Request to move this session" data-testid="move-request">
      <Typography>
        {viewer === "creator" ? (
          <>
            You asked to move this session to <strong>{to}</strong>. It stays at {from} until {booking.expert_name ?? "your expert"} accepts.
          </>
        ) : (
          <>
            {booking.creator_name ?? "The creator"} asks to move this session to <strong>{to}</strong> (now {from}). Both times are held until you answer.
          </>
        )}
      </Typography>
      <Box sx={{ display: "flex", gap: 1, flexWrap: "wrap", mt: 1 }}>
        {viewer === "creator" ? (
          <Button size="small" variant="outlined" color="inherit" onClick={() => answer("withdraw")} disabled={action.busy}>
            Withdraw request
          </Button>
        ) : (
          <>
            <Button size="small" variant="contained" onClick={() => answer("accept")} disabled={action.busy}>
              Accept new time
            </Button>
            <Button size="small" variant="outlined" color="inherit" onClick={() => answer("decline")} disabled={action.busy}>
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
