import { Link } from "@mui/material";
import { Link as RouterLink } from "react-router-dom";
import { DataTable, FunctionField, List, NullableBooleanInput, SelectArrayInput, TextField, useRecordContext } from "react-admin";
import { consoleMoment, DateTimeField } from "../fields/date-time-field.tsx";
import { listExporter } from "../layout/list-exporter.ts";
import { CurrencyMoneyField } from "../ledger/currency-money.tsx";
import { disputeStatusChoices, evidenceDeadlineText, OPEN_DISPUTES, reasonText, type Dispute } from "./dispute-record.ts";
import { DisputeStatusField } from "./dispute-status.tsx";

// Disputes and chargebacks (issue 31.2): one row per dispute of a booking's payment, the soonest evidence deadline
// first. The list opens on the open disputes, the ones whose evidence may still be submitted; the filters show the
// closed ones too, or only some statuses.

const filters = [
  <NullableBooleanInput
    key="open"
    source="open"
    label="Open or closed"
    trueLabel="Open"
    falseLabel="Closed"
    nullLabel="Any"
    alwaysOn
    sx={{ minWidth: 160 }}
  />,
  <SelectArrayInput key="status" source="status" label="Status" choices={disputeStatusChoices} alwaysOn sx={{ minWidth: 220 }} />,
];

const Column = DataTable.Col<Dispute>;

/** To the booking's page; a click here does not also open the dispute. */
function BookingLink() {
  const record = useRecordContext<Dispute>();
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

export function DisputeList() {
  return (
    <List
      filters={filters}
      filterDefaultValues={OPEN_DISPUTES}
      sort={{ field: "evidence_due_by", order: "ASC" }}
      perPage={25}
      title="Disputes"
      exporter={listExporter}
    >
      <DataTable rowClick="show" bulkActionButtons={false}>
        <Column label="Session" disableSort>
          <TextField source="session_title" />
          <FunctionField<Dispute> render={(d) => (d.scheduled_time ? ` · ${consoleMoment(d.scheduled_time)}` : "")} />
        </Column>
        <Column source="amount_cents" label="Amount" align="right">
          <CurrencyMoneyField source="amount_cents" />
        </Column>
        <Column label="Reason" disableSort>
          <FunctionField<Dispute> render={(d) => reasonText(String(d.reason ?? ""))} />
        </Column>
        <Column label="Status" disableSort>
          <DisputeStatusField />
        </Column>
        <Column source="evidence_due_by" label="Evidence deadline">
          <FunctionField<Dispute> render={(d) => evidenceDeadlineText({ ...d, closed_at: d.closed_at ?? null })} />
        </Column>
        <Column source="opened_at" label="Opened">
          <DateTimeField source="opened_at" />
        </Column>
        <Column label="Booking" disableSort>
          <BookingLink />
        </Column>
      </DataTable>
    </List>
  );
}
