import { Chip, type ChipProps } from "@mui/material";
import { useRecordContext, type RaRecord } from "react-admin";
import type { ApplicationStatus } from "@booking/contracts";
import { applicationStatusLabels } from "./application-record.ts";

const colors: Record<ApplicationStatus, ChipProps["color"]> = {
  draft: "default",
  submitted: "warning",
  in_review: "info",
  changes_requested: "secondary",
  approved: "success",
  rejected: "error",
  suspended: "error",
};

/** Where an application stands, one of the seven statuses; a status the console does not know is shown as sent. */
export function ApplicationStatusChip({ status }: { status: ApplicationStatus }) {
  const known = Object.hasOwn(applicationStatusLabels, status);
  return (
    <Chip
      size="small"
      label={known ? applicationStatusLabels[status] : String(status)}
      color={known ? colors[status] : "default"}
      variant={status === "draft" || status === "suspended" ? "outlined" : "filled"}
      data-testid={`vetting-${String(status)}`}
    />
  );
}

/** The record's application status (`status` of an application, `vetting_status` of an expert) as a chip; "—" when it has none. */
export function ApplicationStatusField({ source = "status" }: { source?: string; label?: string; sortable?: boolean }) {
  const record = useRecordContext<RaRecord>();
  const status: unknown = record?.[source];
  if (!record) return null;
  return typeof status === "string" ? <ApplicationStatusChip status={status as ApplicationStatus} /> : <span>—</span>;
}
