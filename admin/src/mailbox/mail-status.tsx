import { Chip, type ChipProps } from "@mui/material";
import { useRecordContext } from "react-admin";
import type { MailStatus } from "@booking/contracts";
import { mailStatusLabels, type MailRow } from "./mail-record.ts";

const colors: Record<MailStatus, ChipProps["color"]> = { pending: "warning", sent: "success", skipped: "default", failed: "error" };

/** Waiting (for its time or the sender), sent, skipped or failed. */
export function MailStatusField(_props: { label?: string; source?: string; sortable?: boolean }) {
  const mail = useRecordContext<MailRow>();
  if (!mail) return null;
  return <Chip size="small" color={colors[mail.status]} label={mailStatusLabels[mail.status]} />;
}
