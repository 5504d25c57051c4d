import { Avatar, Stack } from "@mui/material";
import { DataTable, FunctionField, List, ReferenceField, SelectInput, TextField } from "react-admin";
import { DateTimeField } from "../fields/date-time-field.tsx";
import { listExporter } from "../layout/list-exporter.ts";
import { applicantName, applicationStatusChoices, type Application } from "./application-record.ts";
import { ApplicationStatusField } from "./application-status.tsx";

// The vetting queue (issue 30): applications waiting for a decision, oldest submitted first, so none waits
// longer than the ones after it. The API's default filter is the queue (submitted or in review); the
// status filter shows the applications in any one status.

const applicationFilters = [
  <SelectInput
    key="status"
    source="status"
    label="Status"
    choices={applicationStatusChoices}
    emptyText="Waiting for a decision"
    // The queue (no status chosen) is named in the field, not left blank.
    slotProps={{ select: { displayEmpty: true }, inputLabel: { shrink: true } }}
    alwaysOn
  />,
];

const Column = DataTable.Col<Application>;

function Applicant({ application }: { application: Application }) {
  const name = applicantName(application);
  return (
    <Stack direction="row" spacing={1} sx={{ alignItems: "center" }}>
      <Avatar src={application.profile_image ?? undefined} alt="" sx={{ width: 28, height: 28 }}>
        {name.charAt(0)}
      </Avatar>
      <span>{name}</span>
    </Stack>
  );
}

/** The queue's rows carry no answers (the API reads them from the expert's stream on the application's page): the profile's title. */
function ExpertTitle() {
  return (
    <ReferenceField source="expert_id" reference="experts" link={false} emptyText="—">
      <TextField source="title" />
    </ReferenceField>
  );
}

export function ApplicationList() {
  return (
    <List
      filters={applicationFilters}
      sort={{ field: "applied_at", order: "ASC" }}
      perPage={25}
      title="Applications"
      exporter={listExporter}
    >
      <DataTable rowClick="show" bulkActionButtons={false}>
        <Column source="last_name" label="Name">
          <FunctionField<Application> render={(a) => <Applicant application={a} />} />
        </Column>
        <Column label="Title" disableSort>
          <FunctionField<Application> render={(a) => (a.answers ? a.answers.title : <ExpertTitle />)} />
        </Column>
        {/* The API sorts the queue by vetting_status, the experts read model's column. */}
        <Column source="vetting_status" label="Status">
          <ApplicationStatusField />
        </Column>
        {/* The queue's order is the API's applied_at: when the application waiting for a decision was submitted. */}
        <Column source="applied_at" label="Submitted">
          <DateTimeField source="submitted_at" />
        </Column>
      </DataTable>
    </List>
  );
}
