import { Link, Stack } from "@mui/material";
import { Link as RouterLink } from "react-router-dom";
import { useRecordContext } from "react-admin";
import type { NoShowReply } from "@booking/contracts";
import { consoleMoment } from "../fields/date-time-field.tsx";
import { isNoShowStatus, outcomeLabels, partyText, reporterOf, stateOf } from "./no-show-record.ts";
import { Pairs } from "./no-show-report.tsx";
import { NoShowStateChip } from "./no-show-state.tsx";

// A booking's no-show report in short, on the booking's page (issue 31.1), with a link to the report's page
// where an admin decides it.

type Reported = { id: string | number; status: string; no_show?: NoShowReply | null };

/** The report on the record's booking: who was reported absent, where it stands, and a link to it; nothing on a booking without one. */
export function BookingNoShow(_props: { label?: string; fullWidth?: boolean }) {
  const booking = useRecordContext<Reported>();
  if (!booking) return null;
  const report = booking.no_show;
  const link = (
    <Link component={RouterLink} to={`/no-shows/${encodeURIComponent(String(booking.id))}/show`}>
      Open the no-show report
    </Link>
  );
  if (!report) return isNoShowStatus(booking.status) ? link : null;
  const state = stateOf(report);
  return (
    <Stack spacing={1} data-testid="booking-no-show">
      <Pairs
        rows={[
          ["Reported absent", `${partyText(report.absent)} (reported by ${partyText(reporterOf(report.absent))})`],
          ["Reported", consoleMoment(report.reported_at)],
          ["State", <NoShowStateChip key="state" state={state} />],
          ...(report.outcome !== null ? ([["Outcome", outcomeLabels[report.outcome] ?? report.outcome]] as [string, string][]) : []),
        ]}
      />
      {link}
    </Stack>
  );
}
