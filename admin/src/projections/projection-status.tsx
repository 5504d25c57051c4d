import { Chip, Tooltip } from "@mui/material";
import { useRecordContext } from "react-admin";
import type { ProjectionRecord } from "./projection-record.ts";

export function ProjectionStatusField(_props: { label?: string; source?: string }) {
  const p = useRecordContext<ProjectionRecord>();
  if (!p) return null;
  const color = p.status === "live" ? "success" : p.status === "rebuilding" ? "warning" : "default";
  return <Chip size="small" color={color} label={p.status.replace("_", " ")} />;
}

/** Events in the store the read model has not applied yet. */
export function LagField(_props: { label?: string; source?: string; sortable?: boolean }) {
  const p = useRecordContext<ProjectionRecord>();
  if (!p) return null;
  if (p.lag === null) return <span>n/a</span>;
  return (
    <Tooltip title={`${p.lag} event(s) in the store after the checkpoint`}>
      <Chip
        size="small"
        variant="outlined"
        color={p.lag === 0 ? "success" : p.lag < 100 ? "warning" : "error"}
        label={p.lag}
        data-testid="projection-lag"
      />
    </Tooltip>
  );
}

export function LastErrorField(_props: { label?: string; source?: string }) {
  const p = useRecordContext<ProjectionRecord>();
  if (!p?.last_error) return <span>—</span>;
  return (
    <Tooltip title={p.last_error}>
      <Chip size="small" color="error" label={p.last_error.length > 60 ? `${p.last_error.slice(0, 60)}…` : p.last_error} />
    </Tooltip>
  );
}
