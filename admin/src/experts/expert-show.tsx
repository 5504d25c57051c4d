import HistoryIcon from "@mui/icons-material/History";
import OpenInNewIcon from "@mui/icons-material/OpenInNew";
import { Box, Button, Chip, Link, Stack, Typography } from "@mui/material";
import { Link as RouterLink } from "react-router-dom";
import {
  DataTable,
  FunctionField,
  Labeled,
  ReferenceField,
  ReferenceManyField,
  Show,
  SimpleShowLayout,
  TextField,
  TopToolbar,
  useGetList,
  useRecordContext,
  type RaRecord,
} from "react-admin";
import { historyLabel } from "../applications/application-record.ts";
import { ApplicationStatusField } from "../applications/application-status.tsx";
import { RelatedBookings } from "../bookings/related-bookings.tsx";
import { calendarAtPath } from "../calendar-at/calendar-at-path.ts";
import { consoleMoment, DateTimeField } from "../fields/date-time-field.tsx";
import { MoneyField } from "../fields/money-field.tsx";
import { expertName, publicProfilePath, type Expert } from "./expert-record.ts";
import { ExpertStanding } from "./expert-standing.tsx";
import { SuspensionButton } from "./suspension.tsx";
import { VerifiedBadge, VettingButton } from "./vetting.tsx";

function ExpertTitle() {
  const expert = useRecordContext<Expert>();
  return <span>Expert {expert ? `· ${expertName(expert)}` : ""}</span>;
}

/** To the expert's calendar as it stood at an instant (now, to begin with). */
function CalendarAtButton() {
  const expert = useRecordContext<Expert>();
  if (!expert) return null;
  return (
    <Button
      component={RouterLink}
      to={calendarAtPath({ expert: String(expert.id), at: new Date().toISOString() })}
      size="small"
      startIcon={<HistoryIcon />}
    >
      Calendar at an instant
    </Button>
  );
}

function ExpertActions() {
  return (
    <TopToolbar>
      <CalendarAtButton />
      <VettingButton />
      <SuspensionButton />
    </TopToolbar>
  );
}

type LoggedEvent = RaRecord & {
  type: string;
  recorded_at: string;
  data: { by?: string; reason?: string };
  metadata: { actor?: { userId: string; role: string } };
};

/** The expert stream's events that decide where the expert stands: vetting decisions, suspensions, reinstatements. */
const VETTING_DECISIONS = [
  "ExpertVerified",
  "ExpertUnverified",
  "ApplicationApproved",
  "ApplicationChangesRequested",
  "ApplicationRejected",
  "ExpertSuspended",
  "ExpertReinstated",
];

/** The vetting decisions, suspensions and reinstatements recorded in the expert's stream, newest first. */
function VettingHistory() {
  const expert = useRecordContext<Expert>();
  const { data = [], isPending } = useGetList<LoggedEvent>(
    "events",
    {
      filter: { stream_id: `expert-${expert?.id ?? ""}`, type: VETTING_DECISIONS },
      sort: { field: "position", order: "DESC" },
      pagination: { page: 1, perPage: 20 },
      // Part of the query key only: a new decision (a new stream version) reads the history again.
      meta: { streamVersion: expert?.stream_version },
    },
    { enabled: !!expert },
  );
  if (isPending) return null;
  // The stream id filter is a prefix: keep this expert's stream only.
  const decisions = data.filter((e) => e.stream_id === `expert-${expert?.id}`);
  if (!decisions.length) return <Typography variant="body2">No vetting decision recorded yet.</Typography>;
  return (
    <Stack component="ul" spacing={0.5} sx={{ m: 0, pl: 2 }}>
      {decisions.map((e) => (
        <li key={e.id}>
          <Typography variant="body2" component="span">
            {historyLabel(e.type)} on {consoleMoment(e.recorded_at)} by{" "}
          </Typography>
          <ReferenceField
            record={{ id: e.id, by: e.metadata.actor?.userId ?? e.data.by }}
            source="by"
            reference="users"
            link="show"
            emptyText="unknown"
          >
            <TextField source="email" />
          </ReferenceField>
          {/* Decisions before issue 27.20 were recorded without a reason. */}
          {e.data.reason ? (
            <Typography variant="body2" component="span">
              : {e.data.reason}
            </Typography>
          ) : null}
        </li>
      ))}
    </Stack>
  );
}

function PublicProfileLink() {
  const expert = useRecordContext<Expert>();
  if (!expert) return null;
  return (
    <Link href={publicProfilePath(expert)} target="_blank" rel="noopener" sx={{ display: "inline-flex", alignItems: "center", gap: 0.5 }}>
      {publicProfilePath(expert)} <OpenInNewIcon fontSize="inherit" />
    </Link>
  );
}

/** Where the expert's application stands, and a link to it (its answers, review and history). */
function ApplicationStanding() {
  const expert = useRecordContext<Expert>();
  if (!expert) return null;
  return (
    <Stack direction="row" spacing={1} sx={{ alignItems: "center" }}>
      <ApplicationStatusField source="vetting_status" />
      {expert.vetting_status && expert.vetting_status !== "draft" ? (
        <Link component={RouterLink} to={`/applications/${encodeURIComponent(String(expert.id))}/show`}>
          Open the application
        </Link>
      ) : null}
    </Stack>
  );
}

function ExpertDetails() {
  const expert = useRecordContext<Expert>();
  return (
    <SimpleShowLayout>
      <FunctionField<Expert> label="Name" render={expertName} />
      <TextField source="title" />
      <Labeled label="Vetting">
        <VerifiedBadge />
      </Labeled>
      <Labeled label="Application">
        <ApplicationStanding />
      </Labeled>
      {expert?.vetting_reason ? <TextField source="vetting_reason" label="Last decision's reason" sx={{ whiteSpace: "pre-line" }} /> : null}
      {expert?.applied_at ? <DateTimeField source="applied_at" label="Waiting for a decision since" /> : null}
      <FunctionField<Expert> label="Profile" render={(e) => (e.published ? "Published" : "Unpublished (hidden from the public)")} />
      <Labeled label="Public profile">
        <PublicProfileLink />
      </Labeled>
      <TextField source="bio" emptyText="—" sx={{ whiteSpace: "pre-line" }} />
      <FunctionField<Expert>
        label="Tags"
        render={(e) => (
          <Box sx={{ display: "flex", gap: 0.5, flexWrap: "wrap" }}>
            {e.tags.length ? e.tags.map((tag) => <Chip key={tag} size="small" label={tag} />) : "—"}
          </Box>
        )}
      />
      <ReferenceField source="user_id" reference="users" link="show" label="Account">
        <TextField source="email" />
      </ReferenceField>
      <TextField source="id" label="Expert id" />
      <DateTimeField source="updated_at" label="Updated" />
      <Labeled label="Vetting history">
        <VettingHistory />
      </Labeled>
      <Labeled label="Standards kept">
        <ExpertStanding />
      </Labeled>
      <ReferenceManyField
        label="Sessions"
        reference="sessions"
        target="expert_id"
        sort={{ field: "updated_at", order: "DESC" }}
        filter={{ deleted: false }}
      >
        <DataTable rowClick="show" bulkActionButtons={false} empty={<span>No sessions.</span>}>
          <DataTable.Col source="title" />
          <DataTable.Col source="status" />
          <DataTable.Col source="length_minutes" label="Length" render={(s) => `${String(s.length_minutes)} min`} />
          <DataTable.Col source="price_cents" label="Price" align="right">
            <MoneyField source="price_cents" />
          </DataTable.Col>
        </DataTable>
      </ReferenceManyField>
      {expert ? <RelatedBookings target="expert_id" label="Bookings" /> : null}
    </SimpleShowLayout>
  );
}

export function ExpertShow() {
  return (
    <Show title={<ExpertTitle />} actions={<ExpertActions />}>
      <ExpertDetails />
    </Show>
  );
}
