import { Grid } from "@mui/material";
import { Title } from "react-admin";
import { BookingsByStatus } from "./bookings-by-status.tsx";
import { Last30Days } from "./last-30-days.tsx";
import { LiveMetrics } from "./live-metrics.tsx";
import { ProjectorLag } from "./projector-lag.tsx";

export function Dashboard() {
  return (
    <Grid container spacing={2} sx={{ mt: 1 }}>
      <Title title="Dashboard" />
      <Grid size={{ xs: 12, md: 4 }}>
        <BookingsByStatus />
      </Grid>
      <Grid size={{ xs: 12, md: 8 }}>
        <Last30Days />
      </Grid>
      <Grid size={12}>
        <LiveMetrics />
      </Grid>
      <Grid size={12}>
        <ProjectorLag />
      </Grid>
    </Grid>
  );
}
