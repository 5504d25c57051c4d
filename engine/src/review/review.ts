import {
  isReplyText,
  isReviewRating,
  isReviewText,
  ok,
  refused,
  reviewEditableUntil,
  type Result,
  type ReviewCommand,
  type ReviewEvent,
} from "@booking/contracts";
import type { Decider, DecisionContext } from "../decider.ts";

// Stream `review-{bookingId}`: a completed booking's review, its edits, the expert's reply and an
// admin's hiding. The booking's facts (creator, expert, status) come in the command: the route
// reads them from the bookings read model, this decider decides.

export type ReviewState =
  { kind: "none" } | { kind: "left"; creatorId: string; expertId: string; leftAt: string; replied: boolean; hidden: boolean };

export const initialReviewState = (): ReviewState => ({ kind: "none" });

export function evolveReview(state: ReviewState, events: readonly ReviewEvent[]): ReviewState {
  let s = state;
  for (const e of events) {
    switch (e.type) {
      case "ReviewLeft":
        s = { kind: "left", creatorId: e.data.creatorId, expertId: e.data.expertId, leftAt: e.data.leftAt, replied: false, hidden: false };
        break;
      case "ReviewReplied":
        if (s.kind === "left") s = { ...s, replied: true };
        break;
      case "ReviewHidden":
        if (s.kind === "left") s = { ...s, hidden: true };
        break;
      case "ReviewEdited":
        // An edit changes neither who wrote the review nor when: the 14 days run from the first writing.
        break;
    }
  }
  return s;
}

/** Rules of the stars and text, checked here as well as at the boundary: a command is decided on what it says. */
function invalidReview(rating: number, text: string): Result<never> | null {
  if (!isReviewRating(rating)) return refused("review_rating_invalid");
  if (!isReviewText(text)) return refused("review_text_too_long");
  return null;
}

export function decideReview(c: ReviewCommand, s: ReviewState, ctx: DecisionContext): Result<ReviewEvent[]> {
  switch (c.type) {
    case "LeaveReview": {
      // Rule: only the booking's creator reviews it, once, after the session was completed.
      if (c.actor.role !== "creator" || c.actor.userId !== c.booking.creatorId) return refused("review_not_your_booking");
      if (c.booking.status !== "completed") return refused("review_booking_not_completed");
      if (s.kind === "left") return refused("review_already_left");
      const invalid = invalidReview(c.rating, c.text);
      if (invalid) return invalid;
      const { bookingId, creatorId, expertId } = c.booking;
      return ok([
        {
          type: "ReviewLeft",
          data: { reviewId: c.reviewId, bookingId, expertId, creatorId, rating: c.rating, text: c.text, leftAt: ctx.now },
        },
      ]);
    }
    case "EditReview": {
      if (s.kind === "none") return refused("review_not_found");
      if (c.actor.role !== "creator" || c.actor.userId !== s.creatorId) return refused("review_not_your_booking");
      // Rule: editable for 14 days after it was first written (edits do not extend it).
      if (Date.parse(ctx.now) > Date.parse(reviewEditableUntil(s.leftAt))) return refused("review_edit_window_closed");
      const invalid = invalidReview(c.rating, c.text);
      if (invalid) return invalid;
      return ok([{ type: "ReviewEdited", data: { bookingId: c.bookingId, rating: c.rating, text: c.text, editedAt: ctx.now } }]);
    }
    case "ReplyToReview": {
      // Rule: the booking's expert replies once, in public.
      if (c.actor.role !== "expert" || c.actor.userId !== c.booking.expertUserId) return refused("review_reply_not_expert");
      if (s.kind === "none") return refused("review_not_found");
      if (s.replied) return refused("review_reply_exists");
      if (!isReplyText(c.text)) return refused("review_reply_text_invalid");
      return ok([{ type: "ReviewReplied", data: { bookingId: c.bookingId, expertId: s.expertId, text: c.text, repliedAt: ctx.now } }]);
    }
    case "HideReview": {
      // Rule: an admin hides a review with a reason, kept in the history; hiding it again records nothing.
      if (c.actor.role !== "admin") return refused("forbidden");
      if (!c.reason.trim()) return refused("review_hide_reason_required");
      if (s.kind === "none") return refused("review_not_found");
      if (s.hidden) return ok([]);
      return ok([{ type: "ReviewHidden", data: { bookingId: c.bookingId, reason: c.reason.trim(), by: c.actor.userId } }]);
    }
  }
}

export const reviewDecider: Decider<ReviewCommand, ReviewEvent, ReviewState> = {
  initialState: initialReviewState,
  evolve: evolveReview,
  decide: decideReview,
};

export const reviewStream = (bookingId: string) => `review-${bookingId}`;
