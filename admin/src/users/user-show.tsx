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
  useRecordContext,
} from "react-admin";
import { Typography } from "@mui/material";
import { RelatedBookings } from "../bookings/related-bookings.tsx";
import { DateTimeField, consoleMoment } from "../fields/date-time-field.tsx";
import { TermsStatusField } from "./terms-status.tsx";
import { UserDataExportButton } from "./user-data-export.tsx";
import { erasedLabel, type User } from "./user-record.ts";

function UserTitle() {
  const user = useRecordContext<User>();
  return <span>User {user ? `· ${user.erased_at ? "account erased" : user.email}` : ""}</span>;
}

/** Every terms version this user accepted, newest first. */
function AcceptedVersions(_props: { label: string }) {
  return (
    <ReferenceManyField reference="terms-acceptances" target="user_id" sort={{ field: "accepted_at", order: "DESC" }}>
      <DataTable bulkActionButtons={false} rowClick={false} empty={<span>Never accepted any terms.</span>}>
        <DataTable.Col source="version_id" label="Version" />
        <DataTable.Col source="accepted_at" label="Accepted">
          <DateTimeField source="accepted_at" />
        </DataTable.Col>
      </DataTable>
    </ReferenceManyField>
  );
}

function UserDetails() {
  const user = useRecordContext<User>();
  return (
    <SimpleShowLayout>
      {user?.erased_at ? (
        <Labeled label="Account">
          <Typography role="status">{erasedLabel(user, consoleMoment)}: the name, address and words it had are gone.</Typography>
        </Labeled>
      ) : (
        <TextField source="email" />
      )}
      <FunctionField<User> label="Name" render={(u) => [u.first_name, u.last_name].filter(Boolean).join(" ") || "—"} />
      <TextField source="role" sx={{ textTransform: "capitalize" }} />
      <TextField source="id" label="User id" />
      <DateTimeField source="registered_at" label="Registered" />
      <Labeled label="Terms">
        <TermsStatusField />
      </Labeled>
      {user?.expert_id ? <ReferenceField source="expert_id" reference="experts" link="show" label="Expert profile" /> : null}
      <FunctionField<User>
        label="Bookings"
        render={(u) => `${u.bookings_as_creator} booked as creator · ${u.bookings_as_expert} hosted as expert`}
      />
      <AcceptedVersions label="Terms acceptances" />
      {user?.role === "expert" ? (
        <RelatedBookings target="expert_user_id" label="Bookings hosted" />
      ) : (
        <RelatedBookings target="creator_id" label="Bookings made" />
      )}
    </SimpleShowLayout>
  );
}

export function UserShow() {
  return (
    <Show
      title={<UserTitle />}
      actions={
        <TopToolbar>
          <UserDataExportButton />
        </TopToolbar>
      }
    >
      <UserDetails />
    </Show>
  );
}
