import { Chip, Stack } from "@mui/material";
import { FunctionField, ReferenceField, Show, SimpleShowLayout, TextField, useRecordContext } from "react-admin";
import { RelatedBookings } from "../bookings/related-bookings.tsx";
import { DateTimeField } from "../fields/date-time-field.tsx";
import { MoneyField } from "../fields/money-field.tsx";
import type { Session } from "./session-record.ts";

function SessionTitle() {
  const session = useRecordContext<Session>();
  return <span>Session {session ? `· ${session.title}` : ""}</span>;
}

export function SessionShow() {
  return (
    <Show title={<SessionTitle />}>
      <SimpleShowLayout>
        <TextField source="title" />
        <ReferenceField source="expert_id" reference="experts" link="show" label="Expert" />
        <FunctionField<Session>
          label="Status"
          render={(s) => (s.deleted ? `Deleted (was ${s.status})` : s.status === "draft" ? "Draft" : "Published")}
        />
        <FunctionField<Session> label="Length" render={(s) => `${s.length_minutes} minutes`} />
        <MoneyField source="price_cents" label="Price" />
        <TextField source="description" emptyText="—" sx={{ whiteSpace: "pre-line" }} />
        <TextField source="session_details" label="Details" emptyText="—" sx={{ whiteSpace: "pre-line" }} />
        <FunctionField<Session>
          label="Preparation questions"
          render={(s) => (
            <ol style={{ margin: 0, paddingLeft: "1.25rem" }}>
              {s.prep_questions.map((q, i) => (
                <li key={i}>{q}</li>
              ))}
            </ol>
          )}
        />
        <FunctionField<Session>
          label="Ideal for"
          render={(s) => (
            <Stack direction="row" spacing={0.5} sx={{ flexWrap: "wrap" }}>
              {s.ideal_for.length ? s.ideal_for.map((who) => <Chip key={who} size="small" label={who} />) : "—"}
            </Stack>
          )}
        />
        <TextField source="id" label="Session id" />
        <DateTimeField source="created_at" label="Created" />
        <DateTimeField source="updated_at" label="Updated" />
        <RelatedBookings target="session_id" label="Bookings" />
      </SimpleShowLayout>
    </Show>
  );
}
