import { Alert, Box, Checkbox, FormControlLabel, FormGroup, FormLabel, Stack, TextField, Typography } from "@mui/material";
import { useMutation } from "@tanstack/react-query";
import { useState } from "react";
import { Button, useDataProvider, useNotify, useRecordContext, useRefresh, useShowContext } from "react-admin";
import {
  REAPPLY_WAITING_DAYS,
  VETTING_CHECKLIST,
  VETTING_CHECKLIST_LABELS,
  type ApplicationStatus,
  type VettingChecklist,
} from "@booking/contracts";
import type { ApplicationDecision, ConsoleDataProvider } from "../data-provider.ts";
import { ConfirmDialog } from "../layout/confirm-dialog.tsx";
import {
  APPLICATION_CHANGED,
  applicantName,
  applicationStatusLabels,
  refusalOf,
  waitsForDecision,
  type Application,
} from "./application-record.ts";

// The review of one application (issue 30): start it, tick the checklist, add notes, and decide (approve,
// request changes, reject) with a reason. Every step names the revision the admin had open; when the
// application changed since (a resubmission, another admin's step) the API refuses it, and the admin reloads.

type Decision = ApplicationDecision["decision"];
type Step =
  | { kind: "review"; revision: number }
  | { kind: "note"; revision: number; note: string }
  | { kind: "decision"; revision: number; decision: Decision; reason: string; checklist: VettingChecklist };

const DECISIONS: { decision: Decision; label: string; confirm: string; color: "primary" | "warning" | "error" }[] = [
  { decision: "approve", label: "Approve", confirm: "Approve expert", color: "primary" },
  { decision: "request_changes", label: "Request changes", confirm: "Request changes", color: "warning" },
  { decision: "reject", label: "Reject", confirm: "Reject application", color: "error" },
];

function explanation(decision: Decision, name: string, ticked: number): string {
  const kept = `The reason is sent to ${name} and kept with the checklist (${ticked} of ${VETTING_CHECKLIST.length} ticked).`;
  if (decision === "approve") return `${name} gets the check mark and can be booked. ${kept}`;
  if (decision === "request_changes") return `${name} is asked to change the application and submit it again. ${kept}`;
  return `${name} may apply again in ${REAPPLY_WAITING_DAYS} days. ${kept}`;
}

const doneText: Record<"review" | "note" | Decision, (name: string) => string> = {
  review: (name) => `You are reviewing ${name}'s application.`,
  note: () => "Note added.",
  approve: (name) => `${name} is approved.`,
  request_changes: (name) => `${name} is asked for changes.`,
  reject: (name) => `${name}'s application is rejected.`,
};

/** The checklist, one tick per item (VETTING_CHECKLIST_LABELS), kept with the decision. */
function Checklist({ value, onChange }: { value: VettingChecklist; onChange: (next: VettingChecklist) => void }) {
  return (
    <FormGroup data-testid="vetting-checklist">
      <FormLabel component="legend">Checklist</FormLabel>
      {VETTING_CHECKLIST.map((item) => (
        <FormControlLabel
          key={item}
          label={VETTING_CHECKLIST_LABELS[item]}
          control={<Checkbox checked={value[item] === true} onChange={(e) => onChange({ ...value, [item]: e.target.checked })} />}
        />
      ))}
    </FormGroup>
  );
}

function Decided({ status, reason }: { status: ApplicationStatus; reason: string | null }) {
  return (
    <Typography variant="body2" data-testid="no-decision-to-make">
      Nothing to decide: the application is {(applicationStatusLabels[status] ?? status).toLowerCase()}
      {reason ? ` (${reason})` : ""}.
    </Typography>
  );
}

export function ApplicationReview() {
  const application = useRecordContext<Application>();
  const { refetch } = useShowContext<Application>();
  const dataProvider = useDataProvider<ConsoleDataProvider>();
  const notify = useNotify();
  const refresh = useRefresh();
  const [checklist, setChecklist] = useState<VettingChecklist>({});
  const [note, setNote] = useState("");
  const [asking, setAsking] = useState<Decision | null>(null);
  /** The API's "this application changed" message, until the admin reloads. */
  const [changed, setChanged] = useState<string | null>(null);
  const name = application ? applicantName(application) : "";
  const send = useMutation({
    mutationFn: (step: Step) => {
      const id = String(application?.id);
      if (step.kind === "review") return dataProvider.startApplicationReview(id, step.revision);
      if (step.kind === "note") return dataProvider.noteApplication(id, { seen_revision: step.revision, note: step.note });
      const { revision, decision, reason } = step;
      return dataProvider.decideApplication(id, { seen_revision: revision, decision, reason, checklist: step.checklist });
    },
    onSuccess: (_reply, step) => {
      notify(doneText[step.kind === "decision" ? step.decision : step.kind](name), { type: "success" });
      if (step.kind === "note") setNote("");
      refresh();
    },
    onError: (error) => {
      const refusal = refusalOf(error, "Nothing was changed.");
      if (refusal.code === APPLICATION_CHANGED) setChanged(refusal.message);
      else notify(refusal.message, { type: "error" });
    },
  });
  if (!application) return null;
  const reload = () => {
    setChanged(null);
    void refetch();
  };
  const revision = application.revision;
  const ticked = VETTING_CHECKLIST.filter((item) => checklist[item] === true).length;
  const open = waitsForDecision(application.status);
  return (
    <Stack spacing={2} component="section" aria-label="Review">
      <Typography variant="h6" component="h2">
        Review
      </Typography>
      {changed ? (
        <Alert severity="warning" action={<Button label="Reload" onClick={reload} />} data-testid="application-changed">
          {changed}
        </Alert>
      ) : null}
      {!open ? <Decided status={application.status} reason={application.reason} /> : null}
      {application.status === "submitted" ? (
        <Box>
          <Button
            label="Start review"
            variant="outlined"
            disabled={send.isPending}
            onClick={() => send.mutate({ kind: "review", revision })}
          />
        </Box>
      ) : null}
      {open ? (
        <>
          <Checklist value={checklist} onChange={setChecklist} />
          <Stack direction="row" spacing={1}>
            {DECISIONS.map((d) => (
              <Button
                key={d.decision}
                label={d.label}
                variant={d.decision === "approve" ? "contained" : "outlined"}
                color={d.color}
                disabled={send.isPending}
                onClick={() => setAsking(d.decision)}
              />
            ))}
          </Stack>
          <Stack spacing={1}>
            <TextField
              label="Note (for admins only)"
              multiline
              minRows={2}
              value={note}
              onChange={(e) => setNote(e.target.value)}
              slotProps={{ htmlInput: { maxLength: 2_000 } }}
            />
            <Box>
              <Button
                label="Add note"
                disabled={send.isPending || !note.trim()}
                onClick={() => send.mutate({ kind: "note", revision, note: note.trim() })}
              />
            </Box>
          </Stack>
        </>
      ) : null}
      {DECISIONS.map((d) => (
        <ConfirmDialog
          key={d.decision}
          open={asking === d.decision}
          title={`${d.label}: ${name}?`}
          explanation={explanation(d.decision, name, ticked)}
          confirmLabel={d.confirm}
          askReason
          busy={send.isPending}
          color={d.color}
          onCancel={() => setAsking(null)}
          onConfirm={(reason) => {
            setAsking(null);
            send.mutate({ kind: "decision", revision, decision: d.decision, reason, checklist });
          }}
        />
      ))}
    </Stack>
  );
}
