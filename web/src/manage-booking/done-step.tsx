import { Link as RouterLink } from "react-router-dom";
import Button from "@mui/material/Button";
import Paper from "@mui/material/Paper";
import Typography from "@mui/material/Typography";
import type { Booking } from "../shared/api-types.ts";
import { localMoment } from "../shared/local-time.ts";
import type { DoneStep } from "./manage-steps.ts";

const TITLES: Record<DoneStep, string> = {
  confirmation: "Booking Confirmed",
  proposed: "New Time Proposed",
  declined: "Booking Declined",
  "more-info-confirmation": "Request Sent",
};

/** What the expert's action did, once the API took it. */
export function DoneScreen({ step, booking, result, zone }: { step: DoneStep; booking: Booking; result: Booking | null; zone: string }) {
  const at = localMoment(result?.scheduled_time ?? booking.scheduled_time, zone);
  const text =
    step === "confirmation"
      ? `${booking.creator_name ?? "The creator"} is booked for ${at}.`
      : step === "proposed"
        ? `We asked ${booking.creator_name ?? "the creator"} to accept ${at}.`
        : step === "declined"
          ? `${booking.creator_name ?? "The creator"} sees your reason${booking.paid ? " and is refunded in full" : ""}. The time is free again.`
          : `We asked ${booking.creator_name ?? "the creator"} for more information.`;
  return (
    <Paper variant="outlined" sx={{ p: { xs: 2, sm: 4 }, textAlign: "center" }}>
      <Typography variant="h4" component="h1" gutterBottom>
        {TITLES[step]}
      </Typography>
      <Typography sx={{ mb: 3 }}>{text}</Typography>
      <Button variant="contained" component={RouterLink} to={`/expert-dashboard/${booking.expert_id}/bookings`}>
        Back to your dashboard
      </Button>
    </Paper>
  );
}
