import type { ApplicationReply, ApplicationStatus } from "@booking/contracts";
import Alert, { type AlertColor } from "@mui/material/Alert";
import AlertTitle from "@mui/material/AlertTitle";
import Box from "@mui/material/Box";
import Typography from "@mui/material/Typography";
import { LoadingScreen } from "../shared/guard.tsx";
import { longDate } from "../shared/local-time.ts";
import { ApplicationEditor } from "./application-editor.tsx";
import { mayReapply } from "./application-form.ts";
import { StandingSummary } from "./standing-summary.tsx";
import { useApplication } from "./vetting-queries.ts";

// The expert dashboard's Application tab (issue 30): where the application stands, in plain words, the form
// to apply (or apply again, from the answers sent last) and, once approved, the standards the expert keeps.

const IN_REVIEW = "In review — we answer within 2 working days.";

/** Where the application stands, as the expert reads it. */
export const STATUS_HEADLINES: Record<ApplicationStatus, string> = {
  draft: "Apply to be listed: our team reviews every expert before creators can book them.",
  submitted: IN_REVIEW,
  in_review: IN_REVIEW,
  changes_requested: "Changes requested — please update your application and send it again.",
  approved: "Approved — creators can book you.",
  rejected: "Not approved this time.",
  suspended: "Suspended — new bookings are paused.",
};

const SEVERITY: Record<ApplicationStatus, AlertColor> = {
  draft: "info",
  submitted: "info",
  in_review: "info",
  changes_requested: "warning",
  approved: "success",
  rejected: "error",
  suspended: "error",
};

/** Whether the expert may send (or send again) their application now. */
export const formShown = (application: ApplicationReply, now = new Date()): boolean =>
  application.status === "draft" ||
  application.status === "changes_requested" ||
  (application.status === "rejected" && mayReapply(application, now));

function Details({ application, now }: { application: ApplicationReply; now: Date }) {
  const { status, reason } = application;
  return (
    <>
      {reason && (status === "changes_requested" || status === "rejected" || status === "suspended") && (
        <Typography sx={{ whiteSpace: "pre-line" }}>From our team: {reason}</Typography>
      )}
      {(status === "submitted" || status === "in_review") && (
        <Typography>
          {application.submitted_at ? `Sent on ${longDate(application.submitted_at)}. ` : ""}We will mail you when it is reviewed.
        </Typography>
      )}
      {status === "rejected" &&
        (mayReapply(application, now) || !application.may_reapply_from ? (
          <Typography>You can apply again now.</Typography>
        ) : (
          <Typography>You can apply again from {longDate(application.may_reapply_from)}.</Typography>
        ))}
      {status === "suspended" && (
        <Typography>
          Creators cannot book you while your profile is suspended. Our team will contact you about the bookings you already have.
        </Typography>
      )}
      {status === "approved" && <Typography>Your profile carries the check mark that says our team approved you.</Typography>}
    </>
  );
}

export function ApplicationView({ application, now = new Date() }: { application: ApplicationReply; now?: Date }) {
  return (
    <Box sx={{ display: "grid", gap: 3, maxWidth: 760 }}>
      <Alert severity={SEVERITY[application.status]} role="status">
        <AlertTitle>{STATUS_HEADLINES[application.status]}</AlertTitle>
        <Details application={application} now={now} />
      </Alert>
      {application.status === "approved" && <StandingSummary />}
      {/* Keyed by revision: a new decision starts the form again from the answers sent last. */}
      {formShown(application, now) && <ApplicationEditor key={application.revision} application={application} />}
    </Box>
  );
}

export function ApplicationTab() {
  const application = useApplication();
  if (application.isPending) return <LoadingScreen label="Loading your application" />;
  if (application.isError) return <Alert severity="error">There was an error loading your application.</Alert>;
  return <ApplicationView application={application.data} />;
}
