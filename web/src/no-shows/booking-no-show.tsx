import { useId, useState } from "react";
import type { NoShowParty, NoShowReply } from "@booking/contracts";
import Alert from "@mui/material/Alert";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import Typography from "@mui/material/Typography";
import type { Booking } from "../shared/api-types.ts";
import { useAuth } from "../shared/auth.tsx";
import { browserZone, localMoment } from "../shared/local-time.ts";
import { NoShowDialog, type NoShowStep } from "./no-show-dialog.tsx";
import { useNowUntil } from "./no-show-clock.ts";
import { mayContestNoShow, mayReportNoShow, nextNoShowChange, noShowPartyOf } from "./no-show-window.ts";
import { outcomeLine, partyName, refundLine, reportConsequence, reportedLine, reportTitle, uncontestedLine } from "./no-show-words.ts";

// Issue 31.1 on a booking, for both parties: "Report a no-show" while the window is open, then the
// report itself: who reported whom, the contest window, the contest, and how it was settled.

/** What the report and its button read of a booking. */
type Reported = Pick<
  Booking,
  "id" | "session_title" | "status" | "scheduled_time" | "length_minutes" | "no_show" | "paid_cents" | "currency"
> &
  Pick<Booking, "creator_id" | "expert_id" | "creator_name" | "expert_name">;

/** The report button and the report, on one booking; `zone`: the zone its times are written in. */
export function BookingNoShow({ booking, zone = browserZone() }: { booking: Reported; zone?: string }) {
  const auth = useAuth();
  const party = noShowPartyOf(auth.user, booking);
  const now = useNowUntil((at) => nextNoShowChange(booking, at));
  if (booking.no_show) return <NoShowReport booking={booking} report={booking.no_show} party={party} now={now} zone={zone} />;
  if (!party || !mayReportNoShow(booking, party, now)) return null;
  return <ReportNoShowButton booking={booking} reporter={party} />;
}

function ReportNoShowButton({ booking, reporter }: { booking: Reported; reporter: NoShowParty }) {
  const [open, setOpen] = useState(false);
  const step: NoShowStep = {
    path: "no-show",
    title: reportTitle(booking, reporter),
    consequence: reportConsequence(booking, reporter),
    noteLabel: "What happened? (optional, both of you and our team read it)",
    confirm: "Report no-show",
  };
  return (
    <Box>
      <Button
        variant="outlined"
        color="warning"
        size="small"
        onClick={() => setOpen(true)}
        aria-label={`Report a no-show: ${booking.session_title}`}
      >
        Report a no-show
      </Button>
      <NoShowDialog booking={booking} step={step} open={open} onClose={() => setOpen(false)} />
    </Box>
  );
}

type ReportProps = { booking: Reported; report: NoShowReply; party: NoShowParty | null; now: number; zone: string };

/** The report as it stands: open (and who may contest until when), contested (our team decides), or settled (the outcome). */
function NoShowReport({ booking, report, party, now, zone }: ReportProps) {
  const headingId = useId();
  const [contesting, setContesting] = useState(false);
  const reporter: NoShowParty = report.absent === "creator" ? "expert" : "creator";
  const settled = report.outcome !== null;
  const step: NoShowStep = {
    path: "no-show/contest",
    title: "Contest this report?",
    consequence: `Tell us you were there. Our team reviews the report and both notes, then decides; you and ${partyName(booking, reporter)} are told why.`,
    noteLabel: "What happened? (optional, both of you and our team read it)",
    confirm: "Contest report",
  };
  return (
    <Alert severity={settled ? "info" : "warning"} role="region" aria-labelledby={headingId} data-testid="no-show-report">
      <Typography id={headingId} component="h3" variant="subtitle1" sx={{ fontWeight: 700 }}>
        No-show report
      </Typography>
      <Typography>
        {reportedLine(booking, report.absent, party)}{" "}
        <span data-testid="no-show-reported-at">Reported on {localMoment(report.reported_at, zone)}.</span>
      </Typography>
      {report.note && <Typography data-testid="no-show-note">Note: “{report.note}”</Typography>}
      {report.contested && (
        <Typography data-testid="no-show-contest">
          {report.absent === party ? "You" : partyName(booking, report.absent)} contested it
          {report.contested_at ? ` on ${localMoment(report.contested_at, zone)}` : ""}
          {report.contest_note ? `: “${report.contest_note}”` : "."}
        </Typography>
      )}
      {!settled && !report.contested && now <= Date.parse(report.contest_by) && (
        <Typography data-testid="no-show-deadline">
          <strong>
            {report.absent === party ? "You" : partyName(booking, report.absent)} can contest until {localMoment(report.contest_by, zone)}.
          </strong>{" "}
          {uncontestedLine(booking, report.absent, party)}
        </Typography>
      )}
      {!settled && !report.contested && now > Date.parse(report.contest_by) && (
        <Typography data-testid="no-show-deadline">Nobody contested it in time: the report stands and is settled shortly.</Typography>
      )}
      {!settled && report.contested && (
        <Typography sx={{ fontWeight: 700 }}>Our team will review and decide. Both of you are told why.</Typography>
      )}
      {settled && <SettledReport booking={booking} report={report} party={party} zone={zone} />}
      {mayContestNoShow(booking, party, now) && (
        <Box sx={{ mt: 1 }}>
          <Button variant="contained" color="warning" size="small" onClick={() => setContesting(true)}>
            Contest
          </Button>
          <NoShowDialog booking={booking} step={step} open={contesting} onClose={() => setContesting(false)} />
        </Box>
      )}
    </Alert>
  );
}

function SettledReport({ booking, report, party, zone }: Omit<ReportProps, "now">) {
  const byTeam = report.decided_by !== null && report.decided_by !== "system";
  return (
    <Box data-testid="no-show-outcome" sx={{ mt: 1 }}>
      <Typography sx={{ fontWeight: 700 }}>{outcomeLine(booking, report.outcome!, party)}</Typography>
      <Typography data-testid="no-show-refund">{refundLine(booking, report.refund_cents ?? 0)}</Typography>
      {byTeam ? (
        <Typography data-testid="no-show-reason">Our team's reason: {report.reason}</Typography>
      ) : (
        <Typography data-testid="no-show-reason">Nobody contested the report in time, so it stands.</Typography>
      )}
      {report.settled_at && (
        <Typography variant="body2" color="text.secondary">
          {byTeam ? "Decided" : "Settled"} on {localMoment(report.settled_at, zone)}
        </Typography>
      )}
    </Box>
  );
}
