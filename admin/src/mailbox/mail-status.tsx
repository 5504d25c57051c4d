import { Chip, Stack, Typography, type ChipProps } from "@mui/material";
import { useRecordContext } from "react-admin";
import type { MailStatus } from "@booking/contracts";
import { mailStatusLabels, type MailRow } from "./mail-record.ts";

const colors: Record<MailStatus, ChipProps["color"]> = { pending: "warning", sent: "success", skipped: "default", failed: "error" };

/** Waiting (for its time or the sender), logged, skipped or failed; with `withNote`, why it was skipped or the last error beside it. */
export function MailStatusField({ withNote = false }: { label?: string; source?: string; sortable?: boolean; withNote?: boolean }) {
  const mail = useRecordContext<MailRow>();
  if (!mail) return null;
  const chip = <Chip size="small" color={colors[mail.status]} label={mailStatusLabels[mail.status]} />;
  if (!withNote || !mail.note) return chip;
  return (
    <Stack spacing={0.5} sx={{ alignItems: "flex-start" }}>
      {chip}
      <Typography variant="caption" data-testid="mail-note">
        {mail.note}
      </Typography>
    </Stack>
  );
}
