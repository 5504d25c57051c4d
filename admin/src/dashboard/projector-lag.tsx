import { Alert, Chip, Link, Stack, Typography } from "@mui/material";
import { Link as RouterLink } from "react-router-dom";
import { useGetList } from "react-admin";
import type { ProjectionRecord } from "../projections/projection-record.ts";
import { DashboardCard } from "./dashboard-card.tsx";

/** How far each read model is behind the event store, refreshed every 5 seconds. */
export function ProjectorLag() {
  const {
    data = [],
    isPending,
    error,
  } = useGetList<ProjectionRecord>(
    "projections",
    { pagination: { page: 1, perPage: 50 }, sort: { field: "name", order: "ASC" } },
    { refetchInterval: 5000 },
  );
  const lags = data.map((p) => p.lag).filter((lag): lag is number => lag !== null);
  const worst = lags.length ? Math.max(...lags) : null;
  const failing = data.filter((p) => p.last_error);
  return (
    <DashboardCard
      title="Projector lag"
      subheader={
        isPending
          ? "Loading…"
          : worst === null
            ? "Lag is not measured for this event store"
            : worst === 0
              ? "Every read model is up to date"
              : `Up to ${worst} event${worst === 1 ? "" : "s"} behind`
      }
      action={
        <Link component={RouterLink} to="/projections" sx={{ mr: 1 }}>
          Read models
        </Link>
      }
      testId="projector-lag"
    >
      {error ? <Alert severity="error">{error.message}</Alert> : null}
      {failing.length ? (
        <Alert severity="error" sx={{ mb: 1 }}>
          {failing.map((p) => `${p.name}: ${p.last_error}`).join(" · ")}
        </Alert>
      ) : null}
      <Stack direction="row" spacing={1} useFlexGap sx={{ flexWrap: "wrap" }}>
        {data.map((p) => (
          <Chip
            key={p.id}
            data-testid={`lag-${p.name}`}
            data-lag={p.lag ?? ""}
            color={
              p.status !== "live"
                ? "warning"
                : p.lag === 0
                  ? "success"
                  : p.lag !== null && p.lag < 100
                    ? "warning"
                    : p.lag === null
                      ? "default"
                      : "error"
            }
            variant="outlined"
            label={
              <Typography variant="body2" component="span">
                {p.name}: <strong>{p.lag ?? "n/a"}</strong>
                {p.status !== "live" ? ` (${p.status.replace("_", " ")})` : ""}
              </Typography>
            }
          />
        ))}
      </Stack>
    </DashboardCard>
  );
}
