import { Chip, type ChipProps } from "@mui/material";
import { useRecordContext } from "react-admin";
import type { DisputeStatus } from "@booking/contracts";
import { disputeStatusText, type Dispute } from "./dispute-record.ts";

// A dispute's status as a chip: the ones waiting for evidence stand out, the ended ones are outlined.

const colors: Record<DisputeStatus, ChipProps["color"]> = {
  warning_needs_response: "warning",
  warning_under_review: "info",
  warning_closed: "default",
  needs_response: "error",
  under_review: "info",
  won: "success",
  lost: "error",
};

const ended: readonly string[] = ["won", "lost", "warning_closed"];

/** The status in the provider's words; a status the console does not know as sent. */
export function DisputeStatusChip({ status }: { status: string }) {
  const color = Object.hasOwn(colors, status) ? colors[status as DisputeStatus] : "default";
  return (
    <Chip
      size="small"
      label={disputeStatusText(status)}
      color={color}
      variant={ended.includes(status) ? "outlined" : "filled"}
      data-testid={`dispute-${status}`}
    />
  );
}

/** The record's dispute status as a chip; "—" when it has none. */
export function DisputeStatusField(_props: { label?: string; source?: string }) {
  const record = useRecordContext<Dispute>();
  if (!record) return null;
  return typeof record.status === "string" ? <DisputeStatusChip status={record.status} /> : <span>—</span>;
}
