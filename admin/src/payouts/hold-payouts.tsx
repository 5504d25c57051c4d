import PauseCircleIcon from "@mui/icons-material/PauseCircle";
import PlayCircleIcon from "@mui/icons-material/PlayCircle";
import { useMutation } from "@tanstack/react-query";
import type React from "react";
import { useState } from "react";
import { Button, useDataProvider, useNotify, useRecordContext, useRefresh } from "react-admin";
import { ConfirmDialog } from "../layout/confirm-dialog.tsx";
import { expertName, type PayoutAccount } from "./payout-account-record.ts";

// An admin holds an expert's payouts with a reason (kept on the expert's payouts stream), or resumes
// them: POST /admin/payout-accounts/{expertId}/hold {reason} and …/resume, sent as react-admin creates.

/** The path of an account's hold or resume, as a resource of the data provider. */
export const holdPath = (expertId: string, action: "hold" | "resume") => `payout-accounts/${encodeURIComponent(expertId)}/${action}`;

/** "Hold payouts" (asks for a reason) while they are paid, "Resume payouts" (asks to confirm) while held. */
export function HoldPayoutsButton(_props: { label?: string }) {
  const account = useRecordContext<PayoutAccount>();
  const dataProvider = useDataProvider();
  const notify = useNotify();
  const refresh = useRefresh();
  const [asking, setAsking] = useState(false);
  const held = account?.held === true;
  const send = useMutation({
    mutationFn: (reason: string) =>
      dataProvider.create(holdPath(String(account?.id), held ? "resume" : "hold"), { data: held ? {} : { reason } }),
    onSuccess: () => {
      notify(held ? "Payouts resumed." : "Payouts held.", { type: "success" });
      refresh();
    },
    onError: (error) => notify(error instanceof Error ? error.message : "Nothing was changed.", { type: "error" }),
  });
  if (!account) return null;
  const name = expertName(account);
  const open = (event: React.MouseEvent) => {
    event.stopPropagation();
    setAsking(true);
  };
  return (
    <span onClick={(e) => e.stopPropagation()}>
      <Button
        label={held ? "Resume payouts" : "Hold payouts"}
        onClick={open}
        disabled={send.isPending}
        color={held ? "primary" : "warning"}
        aria-label={`${held ? "Resume payouts" : "Hold payouts"} of ${name}`}
      >
        {held ? <PlayCircleIcon /> : <PauseCircleIcon />}
      </Button>
      <ConfirmDialog
        open={asking}
        title={held ? `Resume payouts to ${name}?` : `Hold payouts to ${name}?`}
        explanation={
          held
            ? "Transfers and payouts to this expert start again; what was released while they were held is transferred."
            : "No transfer or payout goes to this expert until an admin resumes them. Earnings are still released. The reason is kept."
        }
        confirmLabel={held ? "Resume payouts" : "Hold payouts"}
        askReason={!held}
        busy={send.isPending}
        color={held ? "primary" : "warning"}
        onCancel={() => setAsking(false)}
        onConfirm={(reason) => {
          setAsking(false);
          send.mutate(reason);
        }}
      />
    </span>
  );
}
