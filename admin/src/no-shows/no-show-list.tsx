import { Link } from "@mui/material";
import { Link as RouterLink } from "react-router-dom";
import { DataTable, FunctionField, List, SelectArrayInput, TextField, useRecordContext } from "react-admin";
import { consoleMoment } from "../fields/date-time-field.tsx";
import { listExporter } from "../layout/list-exporter.ts";
import { ReportedAbsentField } from "./no-show-people.tsx";
import { contestDeadlineText, NO_SHOW_QUEUE, noShowStateChoices, type NoShow } from "./no-show-record.ts";
import { NoShowStateField } from "./no-show-state.tsx";

// No-show reports (issue 31.1): one row per booking with a report, the soonest contest deadline first. The list
// opens on the contested reports, the queue an admin decides; the state filter shows the open and settled ones
// too (cleared, every report).

const filters = [
  <SelectArrayInput key="state" source="state" label="State" choices={noShowStateChoices} alwaysOn sx={{ minWidth: 220 }} />,
];

const Column = DataTable.Col<NoShow>;

/** To the booking's page; a click here does not also open the report. */
function BookingLink() {
  const record = useRecordContext<NoShow>();
  if (!record?.booking_id) return null;
  return (
    <Link
      component={RouterLink}
      to={`/bookings/${encodeURIComponent(record.booking_id)}/show`}
      onClick={(e) => e.stopPropagation()}
      aria-label={`Booking: ${record.session_title}`}
    >
      Booking
    </Link>
  );
}

export function NoShowList() {
  return (
    <List
      filters={filters}
      filterDefaultValues={{ state: NO_SHOW_QUEUE }}
      sort={{ field: "contest_by", order: "ASC" }}
      perPage={25}
      title="No-shows"
      exporter={listExporter}
    >
      <DataTable rowClick="show" bulkActionButtons={false}>
        <Column source="scheduled_time" label="Session">
          <TextField source="session_title" />
          <FunctionField<NoShow> render={(n) => (n.scheduled_time ? ` · ${consoleMoment(n.scheduled_time)}` : "")} />
        </Column>
        <Column label="Reported absent" disableSort>
          <ReportedAbsentField />
        </Column>
        <Column source="reported_at" label="Reported">
          <FunctionField<NoShow> render={(n) => (n.no_show?.reported_at ? consoleMoment(n.no_show.reported_at) : "—")} />
        </Column>
        <Column source="contest_by" label="Contest deadline">
          <FunctionField<NoShow> render={(n) => contestDeadlineText(n)} />
        </Column>
        <Column source="state" label="State" disableSort>
          <NoShowStateField />
        </Column>
        <Column label="Booking" disableSort>
          <BookingLink />
        </Column>
      </DataTable>
    </List>
  );
}
