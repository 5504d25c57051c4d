import EventNoteIcon from "@mui/icons-material/EventNote";
import { Alert, Box, CircularProgress, Grid, Stack, Typography } from "@mui/material";
import { Link as RouterLink } from "react-router-dom";
import {
  Button,
  FunctionField,
  RecordContextProvider,
  ReferenceField,
  Show,
  SimpleShowLayout,
  TextField,
  TopToolbar,
  useGetOne,
  useRecordContext,
} from "react-admin";
import type { Booking } from "../bookings/booking-record.ts";
import { BookingTimeline } from "../bookings/booking-timeline.tsx";
import { consoleMoment, DateTimeField } from "../fields/date-time-field.tsx";
import { CurrencyMoneyField } from "../ledger/currency-money.tsx";
import { DisputeEvidenceButton } from "./dispute-evidence.tsx";
import {
  disputeMoney,
  evidenceDeadlineText,
  evidenceLeftText,
  isClosed,
  reasonText,
  testPaymentIds,
  type Dispute,
} from "./dispute-record.ts";
import { DisputeStatusField } from "./dispute-status.tsx";
import { TestDisputeForm } from "./test-dispute.tsx";

// One dispute (issue 31.2): what the provider reported (amount, reason, status, evidence deadline), the booking it is
// on, what a lost one took back, and the evidence: the booking's history, shown here and downloaded as one PDF to
// submit to the provider. A dispute over money already refunded says so: the refund is the evidence.

function DisputeTitle() {
  const record = useRecordContext<Dispute>();
  return <span>Dispute {record ? `· ${record.session_title}` : ""}</span>;
}

/** To the booking's page (its money trail, its refunds). */
function BookingButton() {
  const record = useRecordContext<Dispute>();
  if (!record) return null;
  return (
    <Button component={RouterLink} to={`/bookings/${encodeURIComponent(record.booking_id)}/show`} label="Booking" size="small">
      <EventNoteIcon />
    </Button>
  );
}

/** The booking had owed money back when the dispute opened: the creator's bank is reversing money already refunded. */
function RefundedBefore() {
  const record = useRecordContext<Dispute>();
  if (!record || !(record.refunded_before_cents > 0)) return null;
  const refunded = disputeMoney(record.refunded_before_cents, record.currency);
  return (
    <Alert severity="warning" data-testid="dispute-refunded-before" sx={{ mb: 2 }}>
      This booking had already been refunded {refunded} when the dispute opened: submit the refund as evidence.
    </Alert>
  );
}

/** What a lost dispute took back (at most what was paid and not already owed back). */
function lostText(d: Dispute): string {
  const lost = disputeMoney(d.lost_cents, d.currency);
  if (d.lost_cents >= d.amount_cents) return `${lost} taken back`;
  return `${lost} taken back, of ${disputeMoney(d.amount_cents, d.currency)} disputed: the rest had already been owed back`;
}

/** When the evidence is due, in a sentence: "by Monday, 2 March 2026, 09:00 (UTC) (in 6 days)". */
const dueText = (due: string | null) => (due ? `by ${consoleMoment(due)} (${evidenceLeftText(due)})` : "as soon as you can");

/** The evidence: the PDF to submit, and, with the test provider, the test dispute moved on. */
function Evidence({ booking }: { booking: Booking | undefined }) {
  const record = useRecordContext<Dispute>();
  if (!record) return null;
  const closed = isClosed(record);
  const testPayment = testPaymentIds(booking?.timeline).includes(record.payment_id);
  return (
    <Stack spacing={2} component="section" aria-labelledby="dispute-evidence-heading" sx={{ mt: 2 }}>
      <Typography variant="h6" component="h2" id="dispute-evidence-heading">
        Evidence
      </Typography>
      <Typography variant="body2">
        {closed ? "The dispute is closed. " : `Submit it to the provider ${dueText(record.evidence_due_by)}. `}
        The evidence is the booking's history (shown beside): its request, acceptance, the creator's preparation answers, the join link,
        no-show reports and messages, in one document.
      </Typography>
      <Box>
        <DisputeEvidenceButton />
      </Box>
      {testPayment && !closed ? (
        <Box component="section" aria-labelledby="test-dispute-heading">
          <Typography variant="subtitle1" component="h3" id="test-dispute-heading">
            Move the test dispute on
          </Typography>
          <TestDisputeForm paymentIds={[record.payment_id]} currency={record.currency} movingOn disputedCents={record.amount_cents} />
        </Box>
      ) : null}
    </Stack>
  );
}

/** The dispute's facts, its evidence, and the booking's history beside them. */
function DisputeBody() {
  const record = useRecordContext<Dispute>();
  const {
    data: booking,
    error,
    isPending,
  } = useGetOne<Booking>("bookings", { id: record?.booking_id ?? "" }, { enabled: Boolean(record?.booking_id) });
  if (!record) return null;
  return (
    <Grid container spacing={2}>
      <Grid size={{ xs: 12, md: 5 }} sx={{ p: 2 }}>
        <RefundedBefore />
        <SimpleShowLayout sx={{ p: 0 }}>
          <DisputeStatusField label="Status" />
          <CurrencyMoneyField source="amount_cents" label="Disputed" />
          {record.status === "lost" ? <FunctionField<Dispute> label="Lost" render={lostText} /> : null}
          <FunctionField<Dispute> label="Reason" render={(d) => reasonText(d.reason)} />
          <FunctionField<Dispute> label="Evidence due by" render={(d) => evidenceDeadlineText(d)} />
          <DateTimeField source="opened_at" label="Opened" />
          {record.closed_at ? <DateTimeField source="closed_at" label="Closed" /> : null}
          <TextField source="session_title" label="Session" />
          <DateTimeField source="scheduled_time" label="Scheduled" />
          <CurrencyMoneyField source="paid_cents" label="Paid for the booking" />
          <ReferenceField source="expert_id" reference="experts" link="show" label="Expert" />
          <ReferenceField source="creator_id" reference="users" link="show" label="Creator">
            <TextField source="email" />
          </ReferenceField>
          <TextField source="dispute_id" label="Provider's dispute" />
          <TextField source="payment_id" label="Payment" />
        </SimpleShowLayout>
        <Evidence booking={booking} />
      </Grid>
      <Grid size={{ xs: 12, md: 7 }} sx={{ p: 2 }}>
        {isPending && record.booking_id ? <CircularProgress size={20} aria-label="Reading the booking's history" /> : null}
        {error ? <Alert severity="error">The booking's history could not be read: {error.message}</Alert> : null}
        {booking ? (
          <RecordContextProvider value={booking}>
            <BookingTimeline />
          </RecordContextProvider>
        ) : null}
      </Grid>
    </Grid>
  );
}

export function DisputeShow() {
  return (
    <Show
      title={<DisputeTitle />}
      actions={
        <TopToolbar>
          <BookingButton />
        </TopToolbar>
      }
    >
      <DisputeBody />
    </Show>
  );
}
