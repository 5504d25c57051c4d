import { Chip, type ChipProps } from "@mui/material";
import { useRecordContext } from "react-admin";
import { noShowStateLabels, type NoShow, type NoShowState } from "./no-show-record.ts";

const colors: Record<NoShowState, ChipProps["color"]> = { open: "info", contested: "warning", settled: "default" };

/** Where a report stands: open to contest, contested (an admin decides) or settled; a state the console does not know as sent. */
export function NoShowStateChip({ state }: { state: NoShowState }) {
  const known = Object.hasOwn(noShowStateLabels, state);
  return (
    <Chip
      size="small"
      label={known ? noShowStateLabels[state] : String(state)}
      color={known ? colors[state] : "default"}
      variant={state === "settled" ? "outlined" : "filled"}
      data-testid={`no-show-${String(state)}`}
    />
  );
}

/** The record's report state as a chip; "—" when it has none. */
export function NoShowStateField(_props: { label?: string; source?: string }) {
  const record = useRecordContext<NoShow>();
  if (!record) return null;
  return typeof record.state === "string" ? <NoShowStateChip state={record.state} /> : <span>—</span>;
}
