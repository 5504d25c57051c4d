import EventNoteIcon from "@mui/icons-material/EventNote";
import { Grid, Stack, Typography } from "@mui/material";
import { Link as RouterLink } from "react-router-dom";
import { Button, FunctionField, Labeled, Show, SimpleShowLayout, TextField, TopToolbar, useRecordContext } from "react-admin";
import { BookingStatus } from "@booking/contracts";
import { BookingStatusChip } from "../bookings/booking-status.tsx";
import { DateTimeField } from "../fields/date-time-field.tsx";
import { CurrencyMoneyField } from "../ledger/currency-money.tsx";
import { NoShowDecisionForm } from "./no-show-decision.tsx";
import { NoShowPerson } from "./no-show-people.tsx";
import { moneyText, refundableOf, type NoShow } from "./no-show-record.ts";
import { contestRows, outcomeRows, Pairs, reportRows } from "./no-show-report.tsx";
import { NoShowStateField } from "./no-show-state.tsx";

// One no-show report (issue 31.1): the booking it is on (session, time, what was paid and is already owed back),
// the report and its contest, and the admin's decision: the form while the report is open, the outcome once settled.

function NoShowTitle() {
  const record = useRecordContext<NoShow>();
  return <span>No-show {record ? `· ${record.session_title}` : ""}</span>;
}

/** To the booking's page (its timeline and money trail). */
function BookingButton() {
  const record = useRecordContext<NoShow>();
  if (!record) return null;
  return (
    <Button component={RouterLink} to={`/bookings/${encodeURIComponent(record.booking_id)}/show`} label="Booking" size="small">
      <EventNoteIcon />
    </Button>
  );
}

function BookingStatusOf(_props: { label?: string }) {
  const record = useRecordContext<NoShow>();
  if (!record) return null;
  const known = BookingStatus.safeParse(record.status);
  return known.success ? <BookingStatusChip status={known.data} /> : <span>{record.status}</span>;
}

function Report(_props: { label?: string }) {
  const record = useRecordContext<NoShow>();
  if (!record?.no_show) return <span>—</span>;
  return <Pairs testId="no-show-report" rows={[...reportRows(record.no_show), ...contestRows(record.no_show)]} />;
}

/** The decision: the form for an open or contested report, the outcome of a settled one. */
function Decision() {
  const record = useRecordContext<NoShow>();
  if (!record?.no_show) return null;
  const settled = record.no_show.outcome !== null;
  return (
    <Stack spacing={2} component="section" aria-labelledby="no-show-decision-heading">
      <Typography variant="h6" component="h2" id="no-show-decision-heading">
        {settled ? "Outcome" : "Decision"}
      </Typography>
      {settled ? (
        <Pairs testId="no-show-outcome" rows={outcomeRows(record.no_show, record.currency)} />
      ) : (
        <>
          {record.no_show.contested ? null : (
            <Typography variant="body2" color="text.secondary">
              The report is not contested (yet). You may decide it now, or let it stand automatically at its deadline.
            </Typography>
          )}
          <NoShowDecisionForm />
        </>
      )}
    </Stack>
  );
}

export function NoShowShow() {
  return (
    <Show
      title={<NoShowTitle />}
      actions={
        <TopToolbar>
          <BookingButton />
        </TopToolbar>
      }
    >
      <Grid container spacing={2}>
        <Grid size={{ xs: 12, md: 7 }}>
          <SimpleShowLayout>
            <TextField source="session_title" label="Session" />
            <DateTimeField source="scheduled_time" label="Scheduled" />
            <FunctionField<NoShow> label="Length" render={(n) => `${n.length_minutes} minutes`} />
            <BookingStatusOf label="Booking status" />
            <NoShowPerson party="expert" label="Expert" />
            <NoShowPerson party="creator" label="Creator" />
            <CurrencyMoneyField source="paid_cents" label="Paid" />
            <CurrencyMoneyField source="refund_due_cents" label="Already owed back" />
            <FunctionField<NoShow> label="Refundable now" render={(n) => moneyText(refundableOf(n), n.currency)} />
            <TextField source="currency" label="Currency" />
            <NoShowStateField label="Report" />
            <Labeled label="Report and contest" fullWidth>
              <Report />
            </Labeled>
          </SimpleShowLayout>
        </Grid>
        <Grid size={{ xs: 12, md: 5 }} sx={{ p: 2 }}>
          <Decision />
        </Grid>
      </Grid>
    </Show>
  );
}
