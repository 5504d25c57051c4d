import { Chip, type ChipProps } from "@mui/material";
import { useRecordContext } from "react-admin";
import type { RefundStatus } from "@booking/contracts";
import { refundStatusLabels, type Refund } from "./refund-record.ts";

const colors: Record<RefundStatus, ChipProps["color"]> = { pending: "warning", failed: "error", issued: "success" };

/** Pending, failed (the last error on hover) or issued. */
export function RefundStatusField(_props: { label?: string; source?: string; sortable?: boolean }) {
  const refund = useRecordContext<Refund>();
  if (!refund) return null;
  return (
    <Chip
      size="small"
      color={colors[refund.status]}
      label={refundStatusLabels[refund.status]}
      title={refund.last_error ?? undefined}
      data-testid={`refund-${refund.status}`}
    />
  );
}
