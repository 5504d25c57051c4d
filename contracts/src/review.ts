import { z } from "zod";
import { REVIEW_SCALE } from "./constants.ts";
import { BookingStatus } from "./calendar.ts";
import { pageQueryFields } from "./page-query.ts";
import { Actor, Id } from "./primitives.ts";

// Stream `review-{bookingId}`: the review a booking's creator leaves once the session is
// completed, its edits, the expert's public reply and an admin's decision to hide it. A stream
// of its own, so the expert's calendar stream does not grow with reviews.

/** A review's text is at most this long; so is the expert's reply. */
export const REVIEW_TEXT_MAX_CHARS = 2000;
/** A review can be edited for this long after it was first written. */
export const REVIEW_EDIT_DAYS = 14;

/** Rule: a rating is a whole number of stars, 1 to 5. */
export const isReviewRating = (rating: number): boolean => Number.isInteger(rating) && rating >= 1 && rating <= REVIEW_SCALE;
/** Rule: a review's text fits in 2,000 characters (it may be empty: the stars alone are a review). */
export const isReviewText = (text: string): boolean => text.length <= REVIEW_TEXT_MAX_CHARS;
/** Rule: a reply says something, in at most 2,000 characters. */
export const isReplyText = (text: string): boolean => text.trim().length > 0 && text.length <= REVIEW_TEXT_MAX_CHARS;

/** The last moment a review first written at `leftAt` may be edited. */
export const reviewEditableUntil = (leftAt: string): string => new Date(Date.parse(leftAt) + REVIEW_EDIT_DAYS * 86_400_000).toISOString();

/** Reviews on the profile's first page and per page after it when the client does not say (issue 34.5). */
export const REVIEWS_PAGE_DEFAULT = 20;
/** The most reviews one page holds. */
export const REVIEWS_PAGE_MAX = 100;

/** GET /experts/{expertId}/reviews (issue 34.5): `before` is the cursor a `Link: rel="next"` header gave; `limit` 1-100 (default 20). */
export const ExpertReviewsQuery = z.strictObject(
  pageQueryFields({
    cursorError: "reviews_cursor_invalid",
    sizeError: "reviews_page_size_invalid",
    max: REVIEWS_PAGE_MAX,
    defaultSize: REVIEWS_PAGE_DEFAULT,
    items: "Reviews",
    linkedFrom: "on this call or the profile",
    after: "the older reviews after it",
    first: "the newest",
  }),
);
export type ExpertReviewsQuery = z.infer<typeof ExpertReviewsQuery>;

export const ReviewRating = z.number({ error: "review_rating_invalid" }).refine(isReviewRating, { error: "review_rating_invalid" });
export const ReviewText = z.string({ error: "review_text_too_long" }).trim().refine(isReviewText, { error: "review_text_too_long" });
export const ReplyText = z
  .string({ error: "review_reply_text_invalid" })
  .trim()
  .refine(isReplyText, { error: "review_reply_text_invalid" });
export const HideReason = z
  .string({ error: "review_hide_reason_required" })
  .trim()
  .min(1, { error: "review_hide_reason_required" })
  .max(500, { error: "review_hide_reason_required" });

/** Facts about the reviewed booking from the bookings read model (the route reads them; the decider decides). */
export const ReviewedBooking = z.object({
  bookingId: Id,
  creatorId: Id,
  expertId: Id,
  expertUserId: Id,
  status: BookingStatus,
});
export type ReviewedBooking = z.infer<typeof ReviewedBooking>;

const onReview = { bookingId: Id, actor: Actor };

export const ReviewCommand = z.discriminatedUnion("type", [
  z.object({ type: z.literal("LeaveReview"), ...onReview, reviewId: Id, booking: ReviewedBooking, rating: ReviewRating, text: ReviewText }),
  z.object({ type: z.literal("EditReview"), ...onReview, rating: ReviewRating, text: ReviewText }),
  z.object({ type: z.literal("ReplyToReview"), ...onReview, booking: ReviewedBooking, text: ReplyText }),
  z.object({ type: z.literal("HideReview"), ...onReview, reason: z.string().trim().max(500, { error: "review_hide_reason_required" }) }),
]);
export type ReviewCommand = z.infer<typeof ReviewCommand>;

export const ReviewEvent = z.discriminatedUnion("type", [
  z.object({
    type: z.literal("ReviewLeft"),
    data: z.object({
      reviewId: Id,
      bookingId: Id,
      expertId: Id,
      creatorId: Id,
      rating: z.number().int(),
      text: z.string(),
      leftAt: z.string(),
    }),
  }),
  z.object({
    type: z.literal("ReviewEdited"),
    data: z.object({ bookingId: Id, rating: z.number().int(), text: z.string(), editedAt: z.string() }),
  }),
  z.object({ type: z.literal("ReviewReplied"), data: z.object({ bookingId: Id, expertId: Id, text: z.string(), repliedAt: z.string() }) }),
  /** Kept in the history with its reason; a hidden review leaves the profile and the rating. */
  z.object({ type: z.literal("ReviewHidden"), data: z.object({ bookingId: Id, reason: z.string(), by: Id }) }),
]);
export type ReviewEvent = z.infer<typeof ReviewEvent>;

// Bodies and replies of the review routes.

export const ReviewBody = z.strictObject({ rating: ReviewRating, text: ReviewText.optional().default("") });
export const ReviewReplyBody = z.strictObject({ text: ReplyText });
export const HideReviewBody = z.strictObject({ reason: HideReason });

/** An instant as a read model returns it (ISO 8601). */
const Time = z.string();

/** One row of the `reviews` read model: a booking's review, hidden ones included. */
export const ReviewRecord = z.strictObject({
  booking_id: z.string(),
  review_id: z.string(),
  expert_id: z.string(),
  creator_id: z.string(),
  rating: z.number(),
  text: z.string(),
  created_at: Time,
  edited_at: Time.nullable(),
  reply_text: z.string().nullable(),
  replied_at: Time.nullable(),
  hidden: z.boolean(),
  hidden_reason: z.string().nullable(),
  hidden_by: z.string().nullable(),
  hidden_at: Time.nullable(),
  stream_version: z.number(),
});
export type ReviewRecord = z.infer<typeof ReviewRecord>;

/** A booking's review as its parties see it (the creator's form, the expert's reply box). */
export const BookingReviewReply = z.strictObject({
  id: z.string(),
  booking_id: z.string(),
  rating: z.number(),
  text: z.string(),
  created_at: Time,
  edited_at: Time.nullable(),
  /** Until when its creator may edit it. */
  editable_until: Time,
  reply: z.strictObject({ text: z.string(), created_at: Time }).nullable(),
  hidden: z.boolean(),
});
export type BookingReviewReply = z.infer<typeof BookingReviewReply>;

/** GET /bookings/{bookingId}/review: the booking's review, or null before one is left. */
export const BookingReviewState = z.strictObject({ review: BookingReviewReply.nullable() });
export type BookingReviewState = z.infer<typeof BookingReviewState>;

/** GET /admin/reviews: the read model's rows with the names the console shows, keyed by `id` (the booking's). */
export const AdminReviewReply = ReviewRecord.extend({
  id: z.string(),
  creator_name: z.string().nullable(),
  expert_name: z.string().nullable(),
});
export type AdminReviewReply = z.infer<typeof AdminReviewReply>;
