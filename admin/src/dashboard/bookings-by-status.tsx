import { Box, LinearProgress, Link, Stack, Typography } from "@mui/material";
import { Link as RouterLink } from "react-router-dom";
import { useGetList } from "react-admin";
import type { BookingStatus } from "@booking/contracts";
import { bookingStatuses, statusLabels } from "../bookings/booking-record.ts";
import { DashboardCard } from "./dashboard-card.tsx";

/** The number of bookings in one status: a one-row page, for its total. */
function useStatusTotal(status: BookingStatus | null): number | undefined {
  const { total } = useGetList("bookings", {
    filter: status ? { status } : {},
    pagination: { page: 1, perPage: 1 },
    sort: { field: "created_at", order: "DESC" },
  });
  return total;
}

function StatusRow({ status, of }: { status: BookingStatus; of: number | undefined }) {
  const total = useStatusTotal(status);
  const listPath = { pathname: "/bookings", search: `?filter=${encodeURIComponent(JSON.stringify({ status }))}` };
  return (
    <Box component="li" data-testid={`status-${status}`} data-count={total ?? ""}>
      <Stack direction="row" sx={{ justifyContent: "space-between" }}>
        <Link component={RouterLink} to={listPath} underline="hover">
          {statusLabels[status]}
        </Link>
        <Typography sx={{ fontWeight: 600 }}>{total ?? "…"}</Typography>
      </Stack>
      <LinearProgress variant="determinate" value={of && total ? (total / of) * 100 : 0} sx={{ height: 6, borderRadius: 3 }} aria-hidden />
    </Box>
  );
}

/** How many bookings sit in each status, all time. */
export function BookingsByStatus() {
  const all = useStatusTotal(null);
  return (
    <DashboardCard
      title="Bookings by status"
      subheader={all === undefined ? "Loading…" : `${all} booking${all === 1 ? "" : "s"} in all`}
      testId="bookings-by-status"
    >
      <Stack component="ul" spacing={1.5} sx={{ listStyle: "none", p: 0, m: 0 }}>
        {bookingStatuses.map((status) => (
          <StatusRow key={status} status={status} of={all} />
        ))}
      </Stack>
    </DashboardCard>
  );
}
