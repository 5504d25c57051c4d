import { FunctionField, Labeled, ReferenceField, Show, SimpleShowLayout, TextField, TopToolbar, useRecordContext } from "react-admin";
import { DateTimeField } from "../fields/date-time-field.tsx";
import { HideReviewButton, VisibilityBadge } from "./hide-review.tsx";
import { reviewLabel, type Review } from "./review-record.ts";

function ReviewTitle() {
  const review = useRecordContext<Review>();
  return <span>Review {review ? `· ${reviewLabel(review)}` : ""}</span>;
}

function ReviewActions() {
  return (
    <TopToolbar>
      <HideReviewButton />
    </TopToolbar>
  );
}

export function ReviewShow() {
  return (
    <Show title={<ReviewTitle />} actions={<ReviewActions />}>
      <SimpleShowLayout>
        <FunctionField<Review> label="Stars" render={(r) => `${"★".repeat(r.rating)} (${r.rating} of 5)`} />
        <TextField source="text" label="Review" emptyText="—" sx={{ whiteSpace: "pre-line" }} />
        <ReferenceField source="id" reference="bookings" link="show" label="Booking">
          <TextField source="session_title" />
        </ReferenceField>
        <FunctionField<Review> label="Creator" render={(r) => r.creator_name ?? r.creator_id} />
        <FunctionField<Review> label="Expert" render={(r) => r.expert_name ?? r.expert_id} />
        <DateTimeField source="created_at" label="Written" />
        <DateTimeField source="edited_at" label="Last edited" />
        <TextField source="reply_text" label="Expert's reply" emptyText="—" sx={{ whiteSpace: "pre-line" }} />
        <Labeled label="Shown">
          <VisibilityBadge />
        </Labeled>
        <TextField source="hidden_reason" label="Hidden because" emptyText="—" />
        <ReferenceField source="hidden_by" reference="users" link="show" label="Hidden by" emptyText="—">
          <TextField source="email" />
        </ReferenceField>
        <DateTimeField source="hidden_at" label="Hidden at" />
      </SimpleShowLayout>
    </Show>
  );
}
