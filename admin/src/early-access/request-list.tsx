import {
  DataTable,
  DateInput,
  FilterButton,
  FunctionField,
  List,
  SearchInput,
  SelectInput,
  TextField,
  TopToolbar,
  useRecordContext,
} from "react-admin";
import Box from "@mui/material/Box";
import Typography from "@mui/material/Typography";
import type { EarlyAccessRequestRecord } from "@booking/contracts";
import { consoleMoment, DateTimeField } from "../fields/date-time-field.tsx";
import { ExportCsvButton } from "../layout/export-csv-button.tsx";

/**
 * A visitor's request for an invitation (GET /admin/early-access): one per e-mail address, the
 * latest shown, with the versions it replaced. Anyone who knows an address can send the form for
 * it, so an earlier version may be the owner's own.
 */
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

const wrapped = { whiteSpace: "pre-wrap", overflowWrap: "anywhere" } as const;
const askedAt = (iso: string) => consoleMoment(iso);

/** The whole need, under its row (the column shows the first lines only), then the versions it replaced, newest first. */
function WholeRequest() {
  const request = useRecordContext<EarlyAccessRequest>();
  if (!request) return null;
  return (
    <Box sx={{ display: "grid", gap: 2 }}>
      <Typography sx={wrapped}>{request.need}</Typography>
      {request.earlier.length > 0 && (
        <Box component="section" aria-label="Earlier versions">
          <Typography variant="subtitle2" component="h3">
            Earlier versions of this request
          </Typography>
          {request.earlier.map((version, i) => (
            <Box key={i} sx={{ mt: 1, pl: 2, borderLeft: 3, borderColor: "divider" }}>
              <Typography variant="body2" color="text.secondary">
                Asked {askedAt(version.asked_at)} by {version.name}, as {version.role === "expert" ? "an expert" : "a creator"}
              </Typography>
              <Typography sx={wrapped}>{version.need}</Typography>
            </Box>
          ))}
        </Box>
      )}
    </Box>
  );
}

const Column = DataTable.Col<EarlyAccessRequest>;

/** Who asked for an invitation from the landing page, and what they need; the CSV export carries the same filters. */
export function EarlyAccessList() {
  return (
    <List
      filters={requestFilters}
      actions={<RequestActions />}
      sort={{ field: "created_at", order: "DESC" }}
      perPage={25}
      title="Early access requests"
    >
      <DataTable bulkActionButtons={false} expand={<WholeRequest />}>
        <Column source="name" label="Name" />
        <Column source="email" label="Email" />
        <Column source="role" label="Role">
          <TextField source="role" sx={{ textTransform: "capitalize" }} />
        </Column>
        <Column source="need" label="Need" disableSort>
          <TextField
            source="need"
            sx={{ display: "-webkit-box", WebkitLineClamp: 2, WebkitBoxOrient: "vertical", overflow: "hidden", maxWidth: 420 }}
          />
        </Column>
        <Column source="created_at" label="Created">
          <DateTimeField source="created_at" />
        </Column>
        <Column source="earlier" label="Earlier versions" disableSort>
          <FunctionField<EarlyAccessRequest>
            render={(r) => (r.earlier.length ? `${r.earlier.length}, last changed ${askedAt(r.updated_at)}` : "—")}
          />
        </Column>
      </DataTable>
    </List>
  );
}
