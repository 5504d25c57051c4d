import { Alert, Box, FormControl, FormControlLabel, FormLabel, Radio, RadioGroup, Stack, TextField } from "@mui/material";
import { useMutation } from "@tanstack/react-query";
import { useId, useState } from "react";
import { Button, useDataProvider, useNotify, useRecordContext, useRefresh } from "react-admin";
import { NO_SHOW_NOTE_MAX, type NoShowParty } from "@booking/contracts";
import { refusalOf } from "../applications/application-record.ts";
import type { ConsoleDataProvider, NoShowDecision } from "../data-provider.ts";
import { ConfirmDialog } from "../layout/confirm-dialog.tsx";
import { centsFromText, decisionOutcomeText, moneyText, partyText, refundableOf, textFromCents, type NoShow } from "./no-show-record.ts";

// An admin decides a no-show report (issue 31.1): upheld (the reported person did not show) or not, a refund to
// the creator of any part of what was paid and is not already owed back, and a reason both parties read. The
// decision waits for a second click; a refusal (another admin decided first, an amount over the most) is shown
// here as the API words it.

/** The API's answer to a decision on a report that is no longer open. */
const NOT_REPORTED = "no_show_not_reported";

type Draft = { upheld: "yes" | "no" | ""; refund: string; reason: string };

/** What the admin typed as the API takes it, or why it cannot be sent yet. */
function decisionOf(draft: Draft, currency: string, most: number): { decision: NoShowDecision | null; refundError: string | null } {
  const cents = draft.refund.trim() === "" ? null : centsFromText(draft.refund, currency);
  const refundError =
    draft.refund.trim() === ""
      ? null
      : cents === null
        ? `Enter an amount in ${currency}, e.g. 12.50.`
        : cents > most
          ? `At most ${moneyText(most, currency)} can be refunded.`
          : null;
  const reason = draft.reason.trim();
  if (draft.upheld === "" || cents === null || refundError || !reason) return { decision: null, refundError };
  return { decision: { upheld: draft.upheld === "yes", refund_cents: cents, reason }, refundError };
}

function explanation(decision: NoShowDecision, absent: NoShowParty, currency: string): string {
  const outcome = decisionOutcomeText(decision.upheld, absent);
  const refund =
    decision.refund_cents > 0 ? `${moneyText(decision.refund_cents, currency)} goes back to the creator.` : "Nothing is refunded.";
  return `${outcome.charAt(0).toUpperCase()}${outcome.slice(1)}. ${refund} Both people are told the reason: "${decision.reason}"`;
}

/** The decision form of an open or contested report. */
export function NoShowDecisionForm() {
  const record = useRecordContext<NoShow>();
  const dataProvider = useDataProvider<ConsoleDataProvider>();
  const notify = useNotify();
  const refresh = useRefresh();
  const upheldLabel = useId();
  const [draft, setDraft] = useState<Draft>({ upheld: "", refund: "", reason: "" });
  const [asking, setAsking] = useState(false);
  /** The API's refusal, shown until the admin sends again. */
  const [refusal, setRefusal] = useState<{ code: string | null; message: string } | null>(null);
  const send = useMutation({
    mutationFn: (decision: NoShowDecision) => dataProvider.decideNoShow(String(record?.booking_id ?? record?.id), decision),
    onSuccess: () => {
      notify("The no-show report is decided; both people are told why.", { type: "success" });
      setDraft({ upheld: "", refund: "", reason: "" });
      refresh();
    },
    onError: (error) => setRefusal(refusalOf(error, "Nothing was changed.")),
  });
  if (!record?.no_show) return null;
  /** Another admin decided first: the page reloads to show how. */
  const reload = () => {
    setRefusal(null);
    refresh();
  };
  const { currency } = record;
  const absent = record.no_show.absent;
  const most = refundableOf(record);
  const { decision, refundError } = decisionOf(draft, currency, most);
  const set = (change: Partial<Draft>) => setDraft((current) => ({ ...current, ...change }));
  return (
    <Stack spacing={2} data-testid="no-show-decision">
      {refusal ? (
        <Alert
          severity="error"
          data-testid="no-show-refused"
          action={refusal.code === NOT_REPORTED ? <Button label="Reload" onClick={reload} /> : undefined}
        >
          {refusal.message}
        </Alert>
      ) : null}
      <FormControl required>
        <FormLabel id={upheldLabel}>Upheld (the reported person did not show)</FormLabel>
        <RadioGroup aria-labelledby={upheldLabel} value={draft.upheld} onChange={(e) => set({ upheld: e.target.value as Draft["upheld"] })}>
          <FormControlLabel
            value="yes"
            control={<Radio />}
            label={`Yes: ${partyText(absent)} did not show (${decisionOutcomeText(true, absent)})`}
          />
          <FormControlLabel value="no" control={<Radio />} label={`No: the session was held (${decisionOutcomeText(false, absent)})`} />
        </RadioGroup>
      </FormControl>
      <Box>
        <TextField
          label={`Refund to the creator (${currency})`}
          required
          value={draft.refund}
          onChange={(e) => set({ refund: e.target.value })}
          error={refundError !== null}
          helperText={
            refundError ??
            `Any amount up to ${moneyText(most, currency)}: paid ${moneyText(record.paid_cents, currency)}, ` +
              `already owed back ${moneyText(record.refund_due_cents, currency)}.`
          }
          slotProps={{ htmlInput: { inputMode: "decimal" } }}
        />
        <Stack direction="row" spacing={1} sx={{ mt: 1 }}>
          <Button label="Refund all" size="small" onClick={() => set({ refund: textFromCents(most, currency) })} />
          <Button label="Refund nothing" size="small" onClick={() => set({ refund: textFromCents(0, currency) })} />
        </Stack>
      </Box>
      <TextField
        label="Reason (both people read it)"
        required
        multiline
        minRows={3}
        value={draft.reason}
        onChange={(e) => set({ reason: e.target.value })}
        slotProps={{ htmlInput: { maxLength: NO_SHOW_NOTE_MAX } }}
      />
      <Box>
        <Button label="Decide" variant="contained" disabled={!decision || send.isPending} onClick={() => setAsking(true)} />
      </Box>
      {decision ? (
        <ConfirmDialog
          open={asking}
          title="Decide this no-show report?"
          explanation={explanation(decision, absent, currency)}
          confirmLabel="Send decision"
          busy={send.isPending}
          onCancel={() => setAsking(false)}
          onConfirm={() => {
            setAsking(false);
            setRefusal(null);
            send.mutate(decision);
          }}
        />
      ) : null}
    </Stack>
  );
}
