import { describe, it } from "vitest";
import type { Actor, ReviewCommand, ReviewEvent, ReviewedBooking } from "@booking/contracts";
import { reviewDecider } from "../../src/review/review.ts";
import { deciderSpec } from "./decider-spec.ts";

const LEFT_AT = "2030-03-01T12:00:00.000Z";
const CREATOR: Actor = { userId: "c1", role: "creator" };
const OTHER_CREATOR: Actor = { userId: "c2", role: "creator" };
const EXPERT: Actor = { userId: "ux1", role: "expert" };
const OTHER_EXPERT: Actor = { userId: "ux2", role: "expert" };
const ADMIN: Actor = { userId: "a1", role: "admin" };

const completed: ReviewedBooking = { bookingId: "b1", creatorId: "c1", expertId: "ux1", expertUserId: "ux1", status: "completed" };
const leave = (o: Partial<Extract<ReviewCommand, { type: "LeaveReview" }>> = {}): ReviewCommand => ({
  type: "LeaveReview",
  bookingId: "b1",
  actor: CREATOR,
  reviewId: "r1",
  booking: completed,
  rating: 5,
  text: "Clear and kind.",
  ...o,
});
const edit = (o: Partial<Extract<ReviewCommand, { type: "EditReview" }>> = {}): ReviewCommand => ({
  type: "EditReview",
  bookingId: "b1",
  actor: CREATOR,
  rating: 4,
  text: "Clear.",
  ...o,
});
const reply = (o: Partial<Extract<ReviewCommand, { type: "ReplyToReview" }>> = {}): ReviewCommand => ({
  type: "ReplyToReview",
  bookingId: "b1",
  actor: EXPERT,
  booking: completed,
  text: "Thank you!",
  ...o,
});
const hide = (reason: string, actor: Actor = ADMIN): ReviewCommand => ({ type: "HideReview", bookingId: "b1", actor, reason });

const left: ReviewEvent = {
  type: "ReviewLeft",
  data: { reviewId: "r1", bookingId: "b1", expertId: "ux1", creatorId: "c1", rating: 5, text: "Clear and kind.", leftAt: LEFT_AT },
};
const replied: ReviewEvent = { type: "ReviewReplied", data: { bookingId: "b1", expertId: "ux1", text: "Thank you!", repliedAt: LEFT_AT } };
const hidden: ReviewEvent = { type: "ReviewHidden", data: { bookingId: "b1", reason: "Names a third party", by: "a1" } };

/** 14 days after LEFT_AT, to the millisecond. */
const lastEditableMoment = "2030-03-15T12:00:00.000Z";
const justTooLate = "2030-03-15T12:00:00.001Z";

describe("review decider", () => {
  const spec = deciderSpec(reviewDecider, LEFT_AT);

  describe("leaving a review", () => {
    it("the creator of a completed booking leaves one review, timed now", () => {
      spec([]).when(leave()).then([left]);
    });
    it("every whole number of stars from 1 to 5 is a rating; the text may be empty or exactly 2,000 characters", () => {
      for (const rating of [1, 2, 3, 4, 5])
        spec([])
          .when(leave({ rating, text: "" }))
          .then([{ ...left, data: { ...left.data, rating, text: "" } }]);
      const longest = "x".repeat(2000);
      spec([])
        .when(leave({ text: longest }))
        .then([{ ...left, data: { ...left.data, text: longest } }]);
    });
    it("refuses a review of someone else's booking, by another creator, the expert or an admin", () => {
      spec([])
        .when(leave({ actor: OTHER_CREATOR }))
        .thenRefused("review_not_your_booking", "Only the creator of this booking can review it.");
      spec([])
        .when(leave({ actor: EXPERT }))
        .thenRefused("review_not_your_booking");
      spec([])
        .when(leave({ actor: ADMIN }))
        .thenRefused("review_not_your_booking");
    });
    it("refuses a review of a booking that is not completed", () => {
      for (const status of ["pending", "time_proposed", "more_info_requested", "confirmed", "cancelled"] as const)
        spec([])
          .when(leave({ booking: { ...completed, status } }))
          .thenRefused("review_booking_not_completed", "You can review a session once it has been completed.");
    });
    it("refuses a second review of the same booking", () => {
      spec([left])
        .when(leave({ reviewId: "r2" }))
        .thenRefused("review_already_left", "You have already reviewed this session. You can edit your review instead.");
    });
    it("refuses a rating of 0, 6 or 3.5 stars", () => {
      for (const rating of [0, 6, 3.5, -1, Number.NaN])
        spec([]).when(leave({ rating })).thenRefused("review_rating_invalid", "Please choose a rating of 1 to 5 whole stars.");
    });
    it("refuses a text longer than 2,000 characters", () => {
      spec([])
        .when(leave({ text: "x".repeat(2001) }))
        .thenRefused("review_text_too_long", "Please keep your review to 2,000 characters or fewer.");
    });
  });

  describe("editing it", () => {
    it("its creator edits it within 14 days of first writing it, up to the last millisecond", () => {
      const edited: ReviewEvent = {
        type: "ReviewEdited",
        data: { bookingId: "b1", rating: 4, text: "Clear.", editedAt: lastEditableMoment },
      };
      spec([left]).when(edit(), lastEditableMoment).then([edited]);
    });
    it("refuses an edit after 14 days, however recently it was last edited", () => {
      const editedLate: ReviewEvent = {
        type: "ReviewEdited",
        data: { bookingId: "b1", rating: 3, text: "Ok.", editedAt: "2030-03-14T12:00:00.000Z" },
      };
      spec([left, editedLate])
        .when(edit(), justTooLate)
        .thenRefused(
          "review_edit_window_closed",
          "A review can be edited for 14 days after it is written; this one can no longer be changed.",
        );
    });
    it("refuses an edit by anyone else, of a review not left, or with bad stars or text", () => {
      spec([left])
        .when(edit({ actor: OTHER_CREATOR }))
        .thenRefused("review_not_your_booking");
      spec([]).when(edit()).thenRefused("review_not_found", "No review found for this booking.");
      spec([left])
        .when(edit({ rating: 0 }))
        .thenRefused("review_rating_invalid");
      spec([left])
        .when(edit({ rating: 3.5 }))
        .thenRefused("review_rating_invalid");
      spec([left])
        .when(edit({ text: "x".repeat(2001) }))
        .thenRefused("review_text_too_long");
    });
  });

  describe("the expert's reply", () => {
    it("the booking's expert posts one public reply", () => {
      spec([left]).when(reply()).then([replied]);
    });
    it("refuses a reply by another expert, the creator or an admin", () => {
      spec([left])
        .when(reply({ actor: OTHER_EXPERT }))
        .thenRefused("review_reply_not_expert", "Only the expert of this session can reply to its review.");
      spec([left])
        .when(reply({ actor: CREATOR }))
        .thenRefused("review_reply_not_expert");
      spec([left])
        .when(reply({ actor: ADMIN }))
        .thenRefused("review_reply_not_expert");
    });
    it("refuses a second reply, a reply before any review, and an empty or overlong reply", () => {
      spec([left, replied])
        .when(reply({ text: "Again" }))
        .thenRefused("review_reply_exists", "This review already has a reply.");
      spec([]).when(reply()).thenRefused("review_not_found");
      spec([left])
        .when(reply({ text: "  " }))
        .thenRefused("review_reply_text_invalid", "Please write a reply of 1 to 2,000 characters.");
      spec([left])
        .when(reply({ text: "x".repeat(2001) }))
        .thenRefused("review_reply_text_invalid");
    });
  });

  describe("hiding it", () => {
    it("an admin hides a review with a reason, recorded with the admin's id; hiding it again records nothing", () => {
      spec([left]).when(hide("  Names a third party ")).then([hidden]);
      spec([left, hidden]).when(hide("Again")).then([]);
    });
    it("refuses hiding without a reason, by a non-admin, or a review not left", () => {
      spec([left])
        .when(hide("   "))
        .thenRefused("review_hide_reason_required", "Please give a reason (up to 500 characters) for hiding this review.");
      spec([left]).when(hide("Rude", EXPERT)).thenRefused("forbidden");
      spec([left]).when(hide("Rude", CREATOR)).thenRefused("forbidden");
      spec([]).when(hide("Rude")).thenRefused("review_not_found");
    });
  });
});
