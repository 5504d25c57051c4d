import { Box, Chip, LinearProgress, Stack, Tooltip, Typography } from "@mui/material";
import { useGetOne, useRecordContext } from "react-admin";
import { consoleMoment } from "../fields/date-time-field.tsx";
import type { ProjectionGeneration, ProjectionRecord } from "./projection-record.ts";

const POLL_MS = 400;

/**
 * The record in context, polled on its own while a rebuild runs (started here, or a generation
 * being built by any process: `npm run replay`, a deploy's version change), so both generations'
 * progress moves on screen. The same query serves every component that asks, once.
 */
export function useWatchedProjection(): ProjectionRecord | undefined {
  const record = useRecordContext<ProjectionRecord>();
  const watching = record?.rebuild?.state === "running" || (record?.generations.some((g) => g.state === "building" && g.running) ?? false);
  const { data: polled } = useGetOne<ProjectionRecord>(
    "projections",
    { id: record?.id ?? "" },
    { enabled: watching, refetchInterval: watching ? POLL_MS : false },
  );
  return watching && polled ? polled : record;
}

const STATE_LABEL: Record<ProjectionGeneration["state"], string> = {
  live: "live · serving readers",
  building: "building",
  retired: "retired",
};
const STATE_COLOR = { live: "success", building: "warning", retired: "default" } as const;

/** How far a generation is: events up to its position, of the events in the store. */
function reached(g: ProjectionGeneration, head: number | null): { of: number; at: number } | null {
  if (head === null || g.lag === null) return null;
  return { of: head, at: Math.max(0, head - g.lag) };
}

function Generation({ g, head }: { g: ProjectionGeneration; head: number | null }) {
  const progress = reached(g, head);
  const percent = progress ? (progress.of > 0 ? (progress.at / progress.of) * 100 : 100) : 0;
  const abandoned = g.state === "building" && !g.running;
  return (
    <Box
      data-testid="generation"
      data-generation={g.generation}
      data-state={g.state}
      data-events-applied={g.events_applied}
      data-lag={g.lag ?? ""}
      sx={{ minWidth: 220, maxWidth: 560 }}
    >
      <Stack direction="row" spacing={1} sx={{ alignItems: "center" }}>
        <Chip
          size="small"
          color={STATE_COLOR[g.state]}
          variant={g.state === "retired" ? "outlined" : "filled"}
          label={`g${g.generation} ${abandoned ? "abandoned" : STATE_LABEL[g.state]}`}
        />
        <Tooltip title={`Built by version ${g.version} of the read model's rule`}>
          <Typography variant="caption" color="text.secondary">
            v{g.version} · {g.tables.join(", ")}
          </Typography>
        </Tooltip>
      </Stack>
      {g.state === "retired" ? (
        <Typography variant="caption" color="text.secondary" component="div">
          Kept until the next rebuild{g.retired_at ? `; retired at ${consoleMoment(g.retired_at)}` : ""}
        </Typography>
      ) : (
        <>
          <LinearProgress
            variant={progress ? "determinate" : "indeterminate"}
            value={percent}
            color={g.state === "live" ? "success" : "warning"}
            aria-label={`Generation ${g.generation} progress`}
            sx={{ my: 0.5 }}
          />
          <Typography variant="caption" color="text.secondary" component="div" data-testid="generation-progress">
            {progress
              ? `${progress.at.toLocaleString("en-US")} of ${progress.of.toLocaleString("en-US")} events`
              : `${g.events_applied.toLocaleString("en-US")} events applied`}
            {abandoned ? " · left by a stopped rebuild; the next rebuild drops it" : ""}
          </Typography>
        </>
      )}
    </Box>
  );
}

/** A read model's generations: the live one, one being built, retired ones; each with how far it is in the log. */
export function GenerationsField(_props: { label?: string; source?: string; sortable?: boolean }) {
  const p = useWatchedProjection();
  if (!p) return null;
  return (
    <Stack spacing={1} data-testid="generations">
      {p.generations.map((g) => (
        <Generation key={g.generation} g={g} head={p.head_events} />
      ))}
    </Stack>
  );
}
