import { useState } from "react";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import Typography from "@mui/material/Typography";
import EventIcon from "@mui/icons-material/Event";
import { api, errorMessage } from "../shared/api-client.ts";
import type { Booking } from "../shared/api-types.ts";
import { saveFile } from "../shared/save-file.ts";

/** The statuses whose booking holds a time in a calendar (the API refuses the file before confirmation). */
export const inCalendar = (booking: Pick<Booking, "status">) => booking.status === "confirmed";

/** "Add to calendar": the booking's .ics invite (GET /bookings/{id}/calendar.ics), saved as booking-{id}.ics. */
export function AddToCalendarButton({
  booking,
  size = "small",
}: {
  booking: Pick<Booking, "id" | "session_title">;
  size?: "small" | "medium";
}) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const download = async () => {
    setBusy(true);
    setError(null);
    try {
      saveFile(await api.file(`/bookings/${booking.id}/calendar.ics`), `booking-${booking.id}.ics`);
    } catch (e) {
      setError(errorMessage(e));
    } finally {
      setBusy(false);
    }
  };
  return (
    <Box sx={{ display: "inline-flex", flexDirection: "column", gap: 0.5 }}>
      <Button
        size={size}
        variant="outlined"
        startIcon={<EventIcon />}
        onClick={download}
        disabled={busy}
        aria-label={`Add to calendar: ${booking.session_title}`}
      >
        Add to calendar
      </Button>
      {error && (
        <Typography role="alert" color="error" variant="body2">
          {error}
        </Typography>
      )}
    </Box>
  );
}
