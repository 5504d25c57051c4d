import { useState } from "react";
import { Button, Stack, Typography } from "@mui/material";
import { ReferenceField, TextField, useRecordContext } from "react-admin";
import { VETTING_CHECKLIST, VETTING_CHECKLIST_LABELS, type VettingChecklist } from "@booking/contracts";
import { consoleMoment } from "../fields/date-time-field.tsx";
import { ApplicationAsOf } from "./application-as-of.tsx";
import { historyLabel, type Application, type ApplicationHistoryEntry } from "./application-record.ts";

// An application's history (issue 30): each submission, review, note and decision, with the admin who made it,
// when, the reason or note, the checklist as it was ticked, and (time travel) the application as it stood then.

/** The checklist of a decision: every item, ticked (✓) or not (✗). */
function ChecklistKept({ checklist }: { checklist: VettingChecklist }) {
  return (
    <Typography variant="body2" component="ul" sx={{ m: 0, pl: 2, listStyle: "none" }} data-testid="history-checklist">
      {VETTING_CHECKLIST.map((item) => (
        <li key={item}>
          {checklist[item] === true ? "✓" : "✗"} {VETTING_CHECKLIST_LABELS[item]}
          {checklist[item] === true ? "" : " (not ticked)"}
        </li>
      ))}
    </Typography>
  );
}

function Entry({ entry, index, expertId }: { entry: ApplicationHistoryEntry; index: number; expertId: string }) {
  const [travelled, setTravelled] = useState(false);
  return (
    <li data-testid="history-entry">
      <Typography variant="body2" component="span" sx={{ fontWeight: 600 }}>
        {historyLabel(entry.type)}
      </Typography>
      <Typography variant="body2" component="span">
        {" "}
        on {consoleMoment(entry.at)} by{" "}
      </Typography>
      <ReferenceField record={{ id: index, by: entry.by }} source="by" reference="users" link="show" emptyText="unknown">
        <TextField source="email" />
      </ReferenceField>
      {entry.reason ? (
        <Typography variant="body2" sx={{ whiteSpace: "pre-line" }}>
          Reason: {entry.reason}
        </Typography>
      ) : null}
      {entry.note ? (
        <Typography variant="body2" sx={{ whiteSpace: "pre-line" }}>
          Note: {entry.note}
        </Typography>
      ) : null}
      {entry.checklist ? <ChecklistKept checklist={entry.checklist} /> : null}
      <Button size="small" onClick={() => setTravelled((t) => !t)} aria-expanded={travelled} sx={{ px: 0 }}>
        {travelled ? "Hide" : "As it stood then"}
      </Button>
      {travelled ? <ApplicationAsOf expertId={expertId} at={entry.at} /> : null}
    </li>
  );
}

/** The history, newest first. */
export function ApplicationHistory(_props: { label?: string }) {
  const application = useRecordContext<Application>();
  const history = application?.history ?? [];
  if (!history.length) return <Typography variant="body2">Nothing recorded yet.</Typography>;
  const newestFirst = history.map((entry, index) => ({ entry, index })).sort((a, b) => b.entry.at.localeCompare(a.entry.at));
  return (
    <Stack component="ol" spacing={1} sx={{ m: 0, pl: 2 }} aria-label="Application history">
      {newestFirst.map(({ entry, index }) => (
        <Entry key={index} entry={entry} index={index} expertId={application!.expert_id} />
      ))}
    </Stack>
  );
}
