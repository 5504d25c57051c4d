import { ReferenceField, TextField, useRecordContext } from "react-admin";
import type { NoShowParty } from "@booking/contracts";
import type { NoShow } from "./no-show-record.ts";

// The two people of a reported booking, each linked to their page: the expert (by their expert profile) and
// the creator (by their account's email).

/** One party of the record's booking, linked to their page. */
export function NoShowPerson({ party }: { party: NoShowParty; label?: string }) {
  const record = useRecordContext<NoShow>();
  if (!record) return null;
  if (party === "expert") return <ReferenceField source="expert_id" reference="experts" link="show" emptyText="—" />;
  return (
    <ReferenceField source="creator_id" reference="users" link="show" emptyText="—">
      <TextField source="email" />
    </ReferenceField>
  );
}

/** "Expert: Ava Adams": the party a report names, and who they are; "—" on a record without a report. */
export function ReportedAbsentField(_props: { label?: string }) {
  const record = useRecordContext<NoShow>();
  const absent = (record?.no_show as NoShow["no_show"] | undefined)?.absent;
  if (!record || !absent) return <span>—</span>;
  return (
    <span data-testid="reported-absent">
      {absent === "expert" ? "Expert: " : "Creator: "}
      <NoShowPerson party={absent} />
    </span>
  );
}
