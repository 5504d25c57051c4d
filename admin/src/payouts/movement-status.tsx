import { Chip, type ChipProps } from "@mui/material";
import { useRecordContext } from "react-admin";
import { consoleMoment } from "../fields/date-time-field.tsx";

// Status chips and the "last failure" cell of the transfers and payouts lists: a failure is shown,
// with how many tries there were and when the next one is, rather than hidden in a log.

type StatusLabels = Readonly<Record<string, { label: string; color: ChipProps["color"] }>>;

/** The record's `status` as a chip of the given labels (an unknown status as it is), its last error on hover. */
export function MovementStatusField({ labels, kind }: { labels: StatusLabels; kind: string; label?: string; source?: string }) {
  const record = useRecordContext<{ id: string; status?: unknown; last_error?: string | null }>();
  if (!record) return null;
  const status = String(record.status ?? "");
  const known = Object.hasOwn(labels, status) ? labels[status] : undefined;
  return (
    <Chip
      size="small"
      color={known?.color ?? "default"}
      label={known?.label ?? status}
      title={record.last_error ?? undefined}
      data-testid={`${kind}-${status}`}
    />
  );
}

type Failing = { status?: unknown; last_error?: string | null; failure_reason?: string | null; next_attempt_at?: string | null };

/** Why the last try failed and when the next one is; "—" when nothing failed. */
export function lastFailure(record: Failing, done: readonly string[]): string {
  const why = record.failure_reason || record.last_error;
  if (!why) return "—";
  const retry =
    !done.includes(String(record.status)) && record.next_attempt_at ? ` Next try ${consoleMoment(record.next_attempt_at)}.` : "";
  return `${why}${retry}`;
}
