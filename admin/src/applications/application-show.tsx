import OpenInNewIcon from "@mui/icons-material/OpenInNew";
import SchoolIcon from "@mui/icons-material/School";
import { Avatar, Box, Grid, Link, Stack, Typography } from "@mui/material";
import type { ReactNode } from "react";
import { Link as RouterLink } from "react-router-dom";
import { Button, Labeled, Show, SimpleShowLayout, TopToolbar, useRecordContext } from "react-admin";
import { EXPERT_STANDARDS } from "@booking/contracts";
import { DateTimeField } from "../fields/date-time-field.tsx";
import { applicantName, type Application } from "./application-record.ts";
import { ApplicationHistory } from "./application-history.tsx";
import { ApplicationReview } from "./application-review.tsx";
import { ApplicationStatusField } from "./application-status.tsx";

// One application (issue 30): who applied (photo and name), their answers, the standards they agreed to,
// the review (checklist, notes, decision) and the history.

function ApplicationTitle() {
  const application = useRecordContext<Application>();
  return <span>Application {application ? `· ${applicantName(application)}` : ""}</span>;
}

/** To the expert's page (their profile, bookings, suspension). */
function ExpertButton() {
  const application = useRecordContext<Application>();
  if (!application) return null;
  return (
    <Button component={RouterLink} to={`/experts/${encodeURIComponent(application.expert_id)}/show`} label="Expert" size="small">
      <SchoolIcon />
    </Button>
  );
}

/** The photo large enough to judge that it is of a person, beside the name. */
function Applicant() {
  const application = useRecordContext<Application>();
  if (!application) return null;
  const name = applicantName(application);
  return (
    <Stack direction="row" spacing={2} sx={{ alignItems: "center" }}>
      <Avatar
        src={application.profile_image ?? undefined}
        alt={application.profile_image ? `Profile photo of ${name}` : undefined}
        variant="rounded"
        sx={{ width: 120, height: 120, fontSize: 40 }}
      >
        {name.charAt(0)}
      </Avatar>
      <Box>
        <Typography variant="h5" component="p">
          {name}
        </Typography>
        {application.profile_image ? null : (
          <Typography variant="body2" color="text.secondary">
            No profile photo.
          </Typography>
        )}
      </Box>
    </Stack>
  );
}

/** The standards version agreed to, and whether it is the one in force; its text when it is. */
function StandardsAgreed({ agreed, current }: { agreed: string; current: string }) {
  if (agreed !== current) return <span>{`${agreed} (not the standards in force, ${current})`}</span>;
  return (
    <details>
      <summary>{`${agreed} (the standards in force)`}</summary>
      <ul style={{ margin: 0, paddingLeft: "1.25rem" }}>
        {EXPERT_STANDARDS.map((standard) => (
          <li key={standard}>{standard}</li>
        ))}
      </ul>
    </details>
  );
}

/** Links to the applicant's work, opened in a new tab that cannot reach back to the console. */
function WorkLinks({ links }: { links: readonly string[] }) {
  return (
    <ul style={{ margin: 0, paddingLeft: "1.25rem" }} data-testid="application-links">
      {links.map((url) => (
        <li key={url}>
          <Link href={url} target="_blank" rel="noopener noreferrer" sx={{ overflowWrap: "anywhere" }}>
            {url} <OpenInNewIcon fontSize="inherit" />
          </Link>
        </li>
      ))}
    </ul>
  );
}

/** Labels in a column as wide as the longest, values beside them. */
const pairs = { display: "grid", gridTemplateColumns: "minmax(8rem, max-content) minmax(0, 1fr)", columnGap: 2, rowGap: 1, m: 0 };

/** The application's answers as label/value pairs. */
function Answers(_props: { label?: string }) {
  const application = useRecordContext<Application>();
  const answers = application?.answers;
  if (!application || !answers) return <Typography variant="body2">No application submitted yet.</Typography>;
  const rows: [string, ReactNode][] = [
    ["Expertise", answers.expertise],
    ["Title", answers.title],
    ["Years of experience", String(answers.years_of_experience)],
    ["Bio", answers.bio],
    ["Creators can expect", answers.creators_can_expect],
    ["Links", <WorkLinks key="links" links={answers.links} />],
    ["Standards agreed", <StandardsAgreed key="standards" agreed={answers.standards_version} current={application.standards_version} />],
  ];
  return (
    <Box component="dl" sx={pairs} data-testid="application-answers">
      {rows.flatMap(([label, value]) => [
        <Typography key={`${label}-label`} component="dt" variant="body2" color="text.secondary">
          {label}
        </Typography>,
        <Box key={`${label}-value`} component="dd" sx={{ m: 0, whiteSpace: "pre-line", overflowWrap: "anywhere" }}>
          {value}
        </Box>,
      ])}
    </Box>
  );
}

export function ApplicationShow() {
  return (
    <Show
      title={<ApplicationTitle />}
      actions={
        <TopToolbar>
          <ExpertButton />
        </TopToolbar>
      }
    >
      <Grid container spacing={2}>
        <Grid size={{ xs: 12, md: 7 }}>
          <SimpleShowLayout>
            <Applicant />
            <Labeled label="Status">
              <ApplicationStatusField />
            </Labeled>
            <DateTimeField source="submitted_at" label="Submitted" />
            <Labeled label="Answers" fullWidth>
              <Answers />
            </Labeled>
            <Labeled label="History" fullWidth>
              <ApplicationHistory />
            </Labeled>
          </SimpleShowLayout>
        </Grid>
        <Grid size={{ xs: 12, md: 5 }} sx={{ p: 2 }}>
          <ApplicationReview />
        </Grid>
      </Grid>
    </Show>
  );
}
