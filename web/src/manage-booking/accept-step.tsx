import type { ReactNode } from "react";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import Typography from "@mui/material/Typography";
import type { Booking } from "../shared/api-types.ts";
import { localMoment } from "../shared/local-time.ts";

/** Accepting the time the creator asked for: one look at it before the creator is told. */
export function AcceptStep(props: {
  booking: Booking;
  zone: string;
  busy: boolean;
  failure: ReactNode;
  onConfirm: () => void;
  onBack: () => void;
}) {
  const { booking, zone } = props;
  return (
    <Box sx={{ maxWidth: 640 }}>
      <Typography variant="h4" component="h1" gutterBottom>
        Accept Booking
      </Typography>
      <Typography sx={{ mb: 2 }}>
        {booking.creator_name ?? "The creator"} asked for <strong>{localMoment(booking.scheduled_time, zone)}</strong>. Confirm it and they
        are booked.
      </Typography>
      {props.failure}
      <Box sx={{ display: "flex", gap: 2, mt: 3, flexWrap: "wrap" }}>
        <Button variant="contained" size="large" onClick={props.onConfirm} disabled={props.busy}>
          Confirm Date & Time
        </Button>
        <Button onClick={props.onBack}>Back</Button>
      </Box>
    </Box>
  );
}
