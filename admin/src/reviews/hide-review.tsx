import VisibilityOffIcon from "@mui/icons-material/VisibilityOff";
import { Chip } from "@mui/material";
import type React from "react";
import { useState } from "react";
import { Button, useNotify, useRecordContext, useUpdate } from "react-admin";
import { ConfirmDialog } from "../layout/confirm-dialog.tsx";
import type { Review } from "./review-record.ts";

/** Visible, or Hidden (with the reason on hover). */
export function VisibilityBadge(_props: { label?: string; source?: string; sortable?: boolean }) {
  const review = useRecordContext<Review>();
  if (!review) return null;
  return review.hidden ? (
    <Chip size="small" color="warning" label="Hidden" title={review.hidden_reason ?? undefined} data-testid="review-hidden" />
  ) : (
    <Chip size="small" variant="outlined" label="Visible" data-testid="review-visible" />
  );
}

/**
 * Hide a review: the admin gives a reason, sent alone (PUT /admin/reviews/{id}), recorded as an
 * event with this admin as the actor; the review leaves the profile and the rating.
 */
export function HideReviewButton() {
  const review = useRecordContext<Review>();
  const notify = useNotify();
  // The body is the reason alone, not a changed review: the API takes exactly `{ reason }`.
  const [update, { isPending }] = useUpdate();
  const [open, setOpen] = useState(false);
  if (!review || review.hidden) return null;
  const openDialog = (event: React.MouseEvent) => {
    // Inside a list row, the click must not also open the review.
    event.stopPropagation();
    setOpen(true);
  };
  const hide = (reason: string) =>
    void update(
      "reviews",
      { id: review.id, data: { reason }, previousData: review },
      {
        mutationMode: "pessimistic",
        onSuccess: () => {
          setOpen(false);
          notify("The review is hidden from the profile and the rating.", { type: "success" });
        },
        onError: (error) => notify(error instanceof Error ? error.message : "The review was not hidden.", { type: "error" }),
      },
    );
  return (
    <>
      <Button label="Hide" onClick={openDialog} color="warning">
        <VisibilityOffIcon />
      </Button>
      <ConfirmDialog
        open={open}
        title="Hide this review"
        explanation="It leaves the expert's profile and rating. The reason is kept in the review's history."
        confirmLabel="Hide review"
        askReason
        busy={isPending}
        color="warning"
        onCancel={() => setOpen(false)}
        onConfirm={hide}
      />
    </>
  );
}
