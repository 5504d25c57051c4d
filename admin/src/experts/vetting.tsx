import VerifiedIcon from "@mui/icons-material/Verified";
import RemoveModerator from "@mui/icons-material/RemoveModerator";
import { Chip } from "@mui/material";
import type React from "react";
import { useState } from "react";
import { Button, useNotify, useRecordContext, useUpdate } from "react-admin";
import { ConfirmDialog } from "../layout/confirm-dialog.tsx";
import { expertName, type Expert } from "./expert-record.ts";

/** The vetting badge: Verified, or Not verified. */
export function VerifiedBadge(_props: { label?: string; source?: string; sortable?: boolean }) {
  const expert = useRecordContext<Expert>();
  if (!expert) return null;
  return expert.verified ? (
    <Chip size="small" color="primary" icon={<VerifiedIcon />} label="Verified" data-testid="verified-badge" />
  ) : (
    <Chip size="small" variant="outlined" label="Not verified" data-testid="unverified-badge" />
  );
}

/**
 * The vetting decision: Verify or Unverify, confirmed with a reason. Sends `{ verified, reason }`
 * (PUT /admin/experts/{id}), which the API records as an event with this admin as the actor.
 */
export function VettingButton() {
  const expert = useRecordContext<Expert>();
  const notify = useNotify();
  // The body is the decision and its reason, not a changed expert: the API takes exactly `{ verified, reason }`.
  const [update, { isPending }] = useUpdate();
  const [open, setOpen] = useState(false);
  if (!expert) return null;
  const verify = !expert.verified;
  const name = expertName(expert);
  const ask = (event: React.MouseEvent) => {
    // Inside a list row, the click must not also open the expert.
    event.stopPropagation();
    setOpen(true);
  };
  const decide = (reason: string) =>
    void update(
      "experts",
      { id: expert.id, data: { verified: verify, reason }, previousData: expert },
      {
        mutationMode: "pessimistic",
        onSuccess: () => {
          setOpen(false);
          notify(`${name} is ${verify ? "verified" : "no longer verified"}.`, { type: "success" });
        },
        onError: (error) => notify(error instanceof Error ? error.message : "The vetting decision was not saved.", { type: "error" }),
      },
    );
  return (
    <>
      <Button
        label={verify ? "Verify" : "Unverify"}
        onClick={ask}
        disabled={isPending}
        variant={verify ? "contained" : "outlined"}
        color={verify ? "primary" : "warning"}
      >
        {verify ? <VerifiedIcon /> : <RemoveModerator />}
      </Button>
      <ConfirmDialog
        open={open}
        title={verify ? `Verify ${name}?` : `Unverify ${name}?`}
        explanation={
          verify ? "Creators will see the Verified badge on this expert's profile." : "The Verified badge leaves this expert's profile."
        }
        confirmLabel={verify ? "Verify expert" : "Unverify expert"}
        askReason
        busy={isPending}
        color={verify ? "primary" : "warning"}
        onCancel={() => setOpen(false)}
        onConfirm={decide}
      />
    </>
  );
}
