import { Grid, Typography } from "@mui/material";
import { FunctionField, Labeled, ReferenceField, Show, SimpleShowLayout, TextField, TopToolbar, useRecordContext } from "react-admin";
import { BookingRecord } from "@booking/contracts";
import { DateTimeField } from "../fields/date-time-field.tsx";
import { JsonField } from "../fields/json-payload.tsx";
import { MoneyField } from "../fields/money-field.tsx";
import { OtherColumns } from "../fields/other-columns.tsx";
import { BookingDisputes } from "../disputes/booking-disputes.tsx";
import { BookingNoShow } from "../no-shows/no-show-brief.tsx";
import { isNoShowStatus } from "../no-shows/no-show-record.ts";
import { RefundBookingButton } from "../refunds/refund-booking.tsx";
import { RelatedRefunds } from "../refunds/related-refunds.tsx";
import { refundStateLabels, type Booking } from "./booking-record.ts";
import { BookingConversation } from "./booking-conversation.tsx";
import { BookingStatusField, PaymentStateField } from "./booking-status.tsx";
import { BookingTimeline } from "./booking-timeline.tsx";
import { MoneyTrail } from "./money-trail.tsx";

function BookingTitle() {
  const booking = useRecordContext<Booking>();
  return <span>Booking {booking ? `· ${booking.session_title}` : ""}</span>;
}

/** The creator's answers next to the session's questions. */
function PrepAnswers() {
  const booking = useRecordContext<Booking>();
  const questions = booking?.prep_questions ?? [];
  const answers = Array.isArray(booking?.prep_answers) ? booking.prep_answers : [];
  if (!questions.length) return <span>—</span>;
  return (
    <ol style={{ margin: 0, paddingLeft: "1.25rem" }}>
      {questions.map((question, i) => (
        <li key={i}>
          <Typography variant="body2" sx={{ fontWeight: 600 }}>
            {question}
          </Typography>
          <Typography variant="body2" color={answers[i] ? "text.primary" : "text.secondary"}>
            {answers[i] ?? "Not answered yet"}
          </Typography>
        </li>
      ))}
    </ol>
  );
}

/** The columns the details below place by hand; every other column of the read model follows them as it is. */
const PLACED = new Set<string>([
  "booking_id",
  "session_title",
  "expert_id",
  "creator_id",
  "status",
  "scheduled_time",
  "previous_time",
  "length_minutes",
  "price_cents",
  "payment_state",
  "paid_cents",
  "refund_due_cents",
  "refunded_cents",
  "refund_state",
  "held_until",
  "cancelled_by",
  "cancel_reason",
  "cancelled_at",
  "info_request_note",
  "prep_questions",
  "prep_answers",
  "notes",
  "created_at",
  "updated_at",
  "session_id",
  "no_show",
  "disputes",
] satisfies (keyof BookingRecord)[]);
const COLUMNS = Object.keys(BookingRecord.shape);

function BookingDetails() {
  const booking = useRecordContext<Booking>();
  return (
    <SimpleShowLayout>
      <TextField source="id" label="Booking id" />
      <TextField source="session_title" label="Session" />
      <ReferenceField source="expert_id" reference="experts" link="show" label="Expert" />
      <ReferenceField source="creator_id" reference="users" link="show" label="Creator">
        <TextField source="email" />
      </ReferenceField>
      <BookingStatusField label="Status" />
      {booking?.no_show || (booking && isNoShowStatus(booking.status)) ? (
        <Labeled label="No-show report" fullWidth>
          <BookingNoShow />
        </Labeled>
      ) : null}
      <DateTimeField source="scheduled_time" label="Scheduled" />
      {booking?.previous_time ? <DateTimeField source="previous_time" label="Previously scheduled" /> : null}
      <FunctionField<Booking> label="Length" render={(b) => `${b.length_minutes} minutes`} />
      <MoneyField source="price_cents" label="Price" />
      <PaymentStateField label="Payment" />
      <MoneyField source="paid_cents" label="Paid" />
      {booking && booking.refund_due_cents > 0 ? <MoneyField source="refund_due_cents" label="Refunds owed" /> : null}
      {booking && booking.refund_due_cents > 0 ? <MoneyField source="refunded_cents" label="Refunded" /> : null}
      {booking && booking.refund_state !== "none" ? (
        <FunctionField<Booking> label="Refund" render={(b) => refundStateLabels[b.refund_state]} />
      ) : null}
      {booking && booking.paid_cents > 0 ? <RelatedRefunds label="Refunds" /> : null}
      {booking?.status === "pending" && booking.payment_state === "unpaid" ? (
        <DateTimeField source="held_until" label="Held until" />
      ) : null}
      {booking?.cancelled_by ? (
        <FunctionField<Booking>
          label="Cancelled"
          render={(b) => `by the ${b.cancelled_by}${b.cancel_reason ? `: ${b.cancel_reason}` : ""}`}
        />
      ) : null}
      {booking?.cancelled_at ? <DateTimeField source="cancelled_at" label="Cancelled at" /> : null}
      {booking?.info_request_note ? <TextField source="info_request_note" label="Information requested" /> : null}
      <Labeled label="Preparation">
        <PrepAnswers />
      </Labeled>
      {booking?.notes ? <JsonField source="notes" label="Session notes" /> : null}
      <DateTimeField source="created_at" label="Booked" />
      <DateTimeField source="updated_at" label="Last change" />
      <ReferenceField source="session_id" reference="sessions" link="show" label="Session definition" />
      <OtherColumns label="Other columns" columns={COLUMNS} shown={PLACED} />
    </SimpleShowLayout>
  );
}

/**
 * One booking: its details from the read model, its disputes (issue 31.2), its conversation (issue 31.3), its money trail
 * and its timeline from the event store.
 */
export function BookingShow() {
  return (
    <Show
      title={<BookingTitle />}
      actions={
        <TopToolbar>
          <RefundBookingButton />
        </TopToolbar>
      }
    >
      <Grid container spacing={2}>
        <Grid size={{ xs: 12, md: 5 }}>
          <BookingDetails />
        </Grid>
        <Grid size={{ xs: 12, md: 7 }} sx={{ p: 2 }}>
          <BookingDisputes />
          <BookingConversation />
          <MoneyTrail />
          <BookingTimeline />
        </Grid>
      </Grid>
    </Show>
  );
}
