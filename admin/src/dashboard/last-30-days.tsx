import { Alert, Box, Stack, Tooltip, Typography } from "@mui/material";
import { useQuery } from "@tanstack/react-query";
import { useDataProvider } from "react-admin";
import type { Booking } from "../bookings/booking-record.ts";
import { formatCents } from "../fields/money-field.tsx";
import { DashboardCard } from "./dashboard-card.tsx";

const DAYS = 30;
const PAGE = 500;

type Day = { date: string; bookings: number; revenueCents: number };

/** A local calendar day, YYYY-MM-DD. */
const dayOf = (d: Date) => `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, "0")}-${String(d.getDate()).padStart(2, "0")}`;

function emptyDays(today: Date): Day[] {
  return Array.from({ length: DAYS }, (_, i) => {
    const d = new Date(today.getFullYear(), today.getMonth(), today.getDate() - (DAYS - 1 - i));
    return { date: dayOf(d), bookings: 0, revenueCents: 0 };
  });
}

/**
 * Bookings made in the last 30 days (by booking time), newest first, page by page until the pages
 * reach past the window. Revenue is what was paid, less what is owed back.
 */
function useLast30Days() {
  const dataProvider = useDataProvider();
  return useQuery({
    queryKey: ["dashboard", "last-30-days"],
    refetchInterval: 60_000,
    queryFn: async ({ signal }) => {
      const today = new Date();
      const days = emptyDays(today);
      const since = new Date(today.getFullYear(), today.getMonth(), today.getDate() - (DAYS - 1)).getTime();
      const byDate = new Map(days.map((d) => [d.date, d]));
      for (let page = 1; ; page++) {
        const { data } = await dataProvider.getList<Booking>("bookings", {
          pagination: { page, perPage: PAGE },
          sort: { field: "created_at", order: "DESC" },
          filter: {},
          signal,
        });
        for (const booking of data) {
          const created = new Date(booking.created_at);
          if (created.getTime() < since) continue;
          const day = byDate.get(dayOf(created));
          if (!day) continue;
          day.bookings += 1;
          day.revenueCents += booking.paid_cents - booking.refund_due_cents;
        }
        const last = data.at(-1);
        if (data.length < PAGE || !last || Date.parse(last.created_at) < since) break;
      }
      return days;
    },
  });
}

function Bars({ days, value, label, format }: { days: Day[]; value: (d: Day) => number; label: string; format: (n: number) => string }) {
  const max = Math.max(1, ...days.map(value));
  const width = 600;
  const height = 90;
  const gap = 3;
  const bar = width / days.length - gap;
  return (
    <Box>
      <Typography variant="overline">{label}</Typography>
      <svg
        viewBox={`0 0 ${width} ${height}`}
        width="100%"
        height={height}
        role="img"
        aria-label={`${label} per day, last ${DAYS} days`}
        preserveAspectRatio="none"
      >
        {days.map((d, i) => {
          const h = Math.max(value(d) > 0 ? 3 : 1, (Math.max(0, value(d)) / max) * (height - 4));
          return (
            // describeChild: the day goes in a title, not an aria-label, which a bar inside an image may not carry.
            <Tooltip key={d.date} title={`${d.date}: ${format(value(d))}`} describeChild>
              <rect x={i * (bar + gap)} y={height - h} width={bar} height={h} rx={2} fill={value(d) > 0 ? "#1976d2" : "#cfd8dc"} />
            </Tooltip>
          );
        })}
      </svg>
      <Stack direction="row" sx={{ justifyContent: "space-between" }}>
        <Typography variant="caption" color="text.secondary">
          {days[0]?.date}
        </Typography>
        <Typography variant="caption" color="text.secondary">
          {days.at(-1)?.date}
        </Typography>
      </Stack>
    </Box>
  );
}

export function Last30Days() {
  const { data: days, error, isPending } = useLast30Days();
  const bookings = days?.reduce((n, d) => n + d.bookings, 0) ?? 0;
  const revenue = days?.reduce((n, d) => n + d.revenueCents, 0) ?? 0;
  return (
    <DashboardCard
      title="Last 30 days"
      subheader="Bookings made and revenue received (net of refunds due), by day booked"
      testId="last-30-days"
    >
      {error ? <Alert severity="error">{error instanceof Error ? error.message : "Could not load bookings."}</Alert> : null}
      {isPending ? <Typography>Loading…</Typography> : null}
      {days ? (
        <Stack spacing={2}>
          <Stack direction="row" spacing={6}>
            <Box>
              <Typography variant="h4" data-testid="bookings-30-days">
                {bookings}
              </Typography>
              <Typography variant="body2" color="text.secondary">
                bookings
              </Typography>
            </Box>
            <Box>
              <Typography variant="h4" data-testid="revenue-30-days">
                {formatCents(revenue)}
              </Typography>
              <Typography variant="body2" color="text.secondary">
                revenue
              </Typography>
            </Box>
          </Stack>
          <Bars days={days} value={(d) => d.bookings} label="Bookings" format={(n) => `${n} booking${n === 1 ? "" : "s"}`} />
          <Bars days={days} value={(d) => d.revenueCents} label="Revenue" format={formatCents} />
        </Stack>
      ) : null}
    </DashboardCard>
  );
}
