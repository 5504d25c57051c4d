import VerifiedIcon from "@mui/icons-material/Verified";
import RemoveModerator from "@mui/icons-material/RemoveModerator";
import { Chip } from "@mui/material";
import type React from "react";
import { Button, useNotify, useRecordContext, useUpdate } from "react-admin";
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
 * The vetting decision: Verify or Unverify. Sends only `{ verified }` (PUT /admin/experts/{id}),
 * which the API records as an event with this admin as the actor.
 */
export function VettingButton() {
  const expert = useRecordContext<Expert>();
  const notify = useNotify();
  const [update, { isPending }] = useUpdate<Expert>();
  if (!expert) return null;
  const verify = !expert.verified;
  const decide = (event: React.MouseEvent) => {
    // Inside a list row, the click must not also open the expert.
    event.stopPropagation();
    void update(
      "experts",
      { id: expert.id, data: { verified: verify }, previousData: expert },
      {
        mutationMode: "pessimistic",
        onSuccess: () => notify(`${expertName(expert)} is ${verify ? "verified" : "no longer verified"}.`, { type: "success" }),
        onError: (error) => notify(error instanceof Error ? error.message : "The vetting decision was not saved.", { type: "error" }),
      },
    );
  };
  return (
    <Button label={verify ? "Verify" : "Unverify"} onClick={decide} disabled={isPending} variant={verify ? "contained" : "outlined"} color={verify ? "primary" : "warning"}>
      {verify ? <VerifiedIcon /> : <RemoveModerator />}
    </Button>
  );
}
