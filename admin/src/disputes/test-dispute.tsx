import { Alert, Box, MenuItem, Stack, TextField, Typography } from "@mui/material";
import { useMutation } from "@tanstack/react-query";
import { useState } from "react";
import { Button, useDataProvider, useNotify, useRefresh } from "react-admin";
import type { DisputeStatus } from "@booking/contracts";
import { refusalOf } from "../applications/application-record.ts";
import type { ConsoleDataProvider } from "../data-provider.ts";
import { centsFromText } from "../no-shows/no-show-record.ts";
import {
  disputeMoney,
  disputeStatusChoices,
  disputeStatusText,
  testDisputeReasons,
  type TestDisputeReason,
  type TestDisputeRequest,
} from "./dispute-record.ts";

// The test provider's stand-in for a bank (issue 31.2): open a dispute on a payment made with the test provider, or
// move its test dispute on (under review, won, lost), so the flow can be tried without Stripe. The API refuses it on
// a real provider's payment and on a booking refunded in full; the refusal is shown here as the API words it.

type Draft = { paymentId: string; reason: TestDisputeReason; status: DisputeStatus; amount: string };

type TestDisputeProps = {
  /** The booking's payments made with the test provider (one, as a rule). */
  paymentIds: readonly string[];
  /** The booking's currency, for the amount. */
  currency: string;
  /** Moving an open test dispute on (its reason is kept) rather than opening one. */
  movingOn?: boolean;
  /** The open dispute's amount: what an empty amount sends when moving it on (the API would take all that is refundable). */
  disputedCents?: number;
};

/** The body as the API takes it, or why it cannot be sent: an empty amount is the API's (all that is refundable). */
function requestOf(draft: Draft, props: TestDisputeProps): { body: TestDisputeRequest | null; amountError: string | null } {
  const { currency, movingOn = false, disputedCents } = props;
  const typed = draft.amount.trim();
  const cents = typed === "" ? disputedCents || undefined : centsFromText(typed, currency);
  const amountError = cents === null || cents === 0 ? `Enter an amount over zero in ${currency}, e.g. 25.00, or leave it empty.` : null;
  if (cents === null || amountError || !draft.paymentId) return { body: null, amountError };
  const body: TestDisputeRequest = { status: draft.status, ...(movingOn ? {} : { reason: draft.reason }) };
  return { body: cents === undefined ? body : { ...body, amount_cents: cents }, amountError };
}

/** The form: payment (when there are several), reason (when opening), status, amount; a refusal above it. */
export function TestDisputeForm(props: TestDisputeProps) {
  const { paymentIds, currency, movingOn = false, disputedCents } = props;
  const dataProvider = useDataProvider<ConsoleDataProvider>();
  const notify = useNotify();
  const refresh = useRefresh();
  const [draft, setDraft] = useState<Draft>({
    paymentId: paymentIds[0] ?? "",
    reason: "general",
    status: movingOn ? "won" : "needs_response",
    amount: "",
  });
  const [refusal, setRefusal] = useState<string | null>(null);
  const send = useMutation({
    mutationFn: ({ paymentId, body }: { paymentId: string; body: TestDisputeRequest }) => dataProvider.openTestDispute(paymentId, body),
    onSuccess: (dispute) => {
      notify(`The test dispute is recorded: ${disputeStatusText(dispute.status)}.`, { type: "success" });
      refresh();
    },
    onError: (error) => setRefusal(refusalOf(error, "No dispute was recorded.").message),
  });
  const set = (change: Partial<Draft>) => setDraft((current) => ({ ...current, ...change }));
  const { body, amountError } = requestOf(draft, props);
  const emptyAmount =
    disputedCents === undefined
      ? "all of the payment that is not already owed back"
      : `the disputed ${disputeMoney(disputedCents, currency)}`;
  const submit = () => {
    if (!body) return;
    setRefusal(null);
    send.mutate({ paymentId: draft.paymentId, body });
  };
  return (
    <Stack spacing={2} data-testid="test-dispute-form" sx={{ maxWidth: 420 }}>
      <Typography variant="body2" color="text.secondary">
        Test payment provider only: records what a bank would report{movingOn ? " next" : ""}, without Stripe.
      </Typography>
      {refusal ? (
        <Alert severity="error" data-testid="test-dispute-refused">
          {refusal}
        </Alert>
      ) : null}
      {paymentIds.length > 1 ? (
        <TextField select label="Payment" value={draft.paymentId} onChange={(e) => set({ paymentId: e.target.value })} size="small">
          {paymentIds.map((id) => (
            <MenuItem key={id} value={id}>
              {id}
            </MenuItem>
          ))}
        </TextField>
      ) : null}
      {movingOn ? null : (
        <TextField
          select
          label="Reason"
          value={draft.reason}
          onChange={(e) => set({ reason: e.target.value as TestDisputeReason })}
          size="small"
        >
          {testDisputeReasons.map((r) => (
            <MenuItem key={r.id} value={r.id}>
              {r.name}
            </MenuItem>
          ))}
        </TextField>
      )}
      <TextField
        select
        label={movingOn ? "New status" : "Status"}
        value={draft.status}
        onChange={(e) => set({ status: e.target.value as DisputeStatus })}
        size="small"
      >
        {disputeStatusChoices.map((s) => (
          <MenuItem key={s.id} value={s.id}>
            {s.name}
          </MenuItem>
        ))}
      </TextField>
      <TextField
        label={`Amount (${currency})`}
        value={draft.amount}
        onChange={(e) => set({ amount: e.target.value })}
        size="small"
        error={amountError !== null}
        helperText={amountError ?? `Empty: ${emptyAmount}.`}
        slotProps={{ htmlInput: { inputMode: "decimal" } }}
      />
      <Box>
        <Button
          label={movingOn ? "Record the new status" : "Open test dispute"}
          variant="contained"
          disabled={!body || send.isPending}
          onClick={submit}
        />
      </Box>
    </Stack>
  );
}
