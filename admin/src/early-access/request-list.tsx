import { DataTable, DateInput, FilterButton, List, SearchInput, SelectInput, TextField, TopToolbar, useRecordContext } from "react-admin";
import Typography from "@mui/material/Typography";
import type { EarlyAccessRequestRecord } from "@booking/contracts";
import { DateTimeField } from "../fields/date-time-field.tsx";
import { ExportCsvButton } from "../layout/export-csv-button.tsx";

/** A visitor's request for an invitation (GET /admin/early-access): one per e-mail address, the latest kept. */
export type EarlyAccessRequest = EarlyAccessRequestRecord;

const roleChoices = [
  { id: "creator", name: "Creator" },
  { id: "expert", name: "Expert" },
];

const requestFilters = [
  <SearchInput key="q" source="q" placeholder="Name, email or need" alwaysOn />,
  <SelectInput key="role" source="role" label="Role" choices={roleChoices} alwaysOn />,
  <DateInput key="created_from" source="created_from" label="Asked from" />,
  <DateInput key="created_to" source="created_to" label="Asked to" />,
];

function RequestActions() {
  return (
    <TopToolbar>
      <FilterButton />
      <ExportCsvButton />
    </TopToolbar>
  );
}

/** The whole need, under its row: the column shows the first lines only. */
function WholeNeed() {
  const request = useRecordContext<EarlyAccessRequest>();
  return <Typography sx={{ whiteSpace: "pre-wrap", overflowWrap: "anywhere" }}>{request?.need}</Typography>;
}

const Column = DataTable.Col<EarlyAccessRequest>;

/** Who asked for an invitation from the landing page, and what they need; the CSV export carries the same filters. */
export function EarlyAccessList() {
  return (
    <List filters={requestFilters} actions={<RequestActions />} sort={{ field: "created_at", order: "DESC" }} perPage={25} title="Early access requests">
      <DataTable bulkActionButtons={false} expand={<WholeNeed />}>
        <Column source="name" label="Name" />
        <Column source="email" label="Email" />
        <Column source="role" label="Role">
          <TextField source="role" sx={{ textTransform: "capitalize" }} />
        </Column>
        <Column source="need" label="Need" disableSort>
          <TextField source="need" sx={{ display: "-webkit-box", WebkitLineClamp: 2, WebkitBoxOrient: "vertical", overflow: "hidden", maxWidth: 420 }} />
        </Column>
        <Column source="created_at" label="Created">
          <DateTimeField source="created_at" />
        </Column>
      </DataTable>
    </List>
  );
}
