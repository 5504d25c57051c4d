import { describe, expect, it } from "vitest";
import { BookingReviewReply, ExpertReview, ReviewRecord } from "@booking/contracts";
import { bookingReviewReply, expertReview, reviewsProjection, type ReviewWithNames } from "../src/index.ts";
import { givenAt, readModelSpec, type GivenEvent } from "./read-model-spec.ts";

// The reviews read model's rule without a database: given these events, then these rows; and
// the replies made of a row (what the profile and the booking's parties see).

const spec = readModelSpec(reviewsProjection);
const on = (event: GivenEvent["event"], stream = "review-b1"): GivenEvent => ({ stream, event });
const LEFT_AT = "2030-03-01T12:00:00.000Z";
const left = on({
  type: "ReviewLeft",
  data: { reviewId: "r1", bookingId: "b1", expertId: "e1", creatorId: "c1", rating: 5, text: "Clear and kind.", leftAt: LEFT_AT },
});
const edited = on({ type: "ReviewEdited", data: { bookingId: "b1", rating: 3, text: "Good.", editedAt: "2030-03-02T12:00:00.000Z" } });
const replied = on({
  type: "ReviewReplied",
  data: { bookingId: "b1", expertId: "e1", text: "Thanks!", repliedAt: "2030-03-03T12:00:00.000Z" },
});
const hidden = on({ type: "ReviewHidden", data: { bookingId: "b1", reason: "Names a third party", by: "a1" } });

describe("reviews read model: given events, then rows", () => {
  it("a review left is a visible row of the contracts' shape, dated when it was written", () => {
    const given = spec.given(left);
    given.then([
      {
        booking_id: "b1",
        review_id: "r1",
        expert_id: "e1",
        creator_id: "c1",
        rating: 5,
        text: "Clear and kind.",
        created_at: LEFT_AT,
        edited_at: null,
        reply_text: null,
        hidden: false,
        stream_version: 1,
      },
    ]);
    expect(ReviewRecord.safeParse(given.rows()[0]).success).toBe(true);
  });

  it("an edit changes the stars and text and keeps when it was first written", () => {
    spec
      .given(left, edited)
      .then([{ rating: 3, text: "Good.", created_at: LEFT_AT, edited_at: "2030-03-02T12:00:00.000Z", stream_version: 2 }]);
  });

  it("the expert's reply is kept with its time", () => {
    spec.given(left, replied).then([{ reply_text: "Thanks!", replied_at: "2030-03-03T12:00:00.000Z", rating: 5 }]);
  });

  it("a hidden review stays, marked hidden with the reason, the admin and the time (the history)", () => {
    spec.given(left, replied, hidden).then([
      {
        hidden: true,
        hidden_reason: "Names a third party",
        hidden_by: "a1",
        hidden_at: givenAt(2),
        reply_text: "Thanks!",
        stream_version: 3,
      },
    ]);
  });

  it("events about a review never left make no row; each booking's review is its own row", () => {
    spec.given(edited, replied, hidden).then([]);
    spec
      .given(
        left,
        on(
          {
            type: "ReviewLeft",
            data: { reviewId: "r2", bookingId: "b2", expertId: "e1", creatorId: "c2", rating: 2, text: "", leftAt: LEFT_AT },
          },
          "review-b2",
        ),
      )
      .then([
        { booking_id: "b1", rating: 5 },
        { booking_id: "b2", rating: 2 },
      ]);
  });
});

describe("review replies", () => {
  const row = (names: Partial<ReviewWithNames> = {}): ReviewWithNames => ({
    ...(spec.given(left, replied).rows()[0] as ReviewWithNames),
    creator_first_name: "Maya",
    creator_last_name: "lind",
    expert_first_name: "Ines",
    expert_last_name: "Okafor",
    ...names,
  });

  it("the profile shows the creator by first name and last initial only, with the expert's reply", () => {
    const review = expertReview(row());
    expect(review).toEqual({
      id: "r1",
      rating: 5,
      review: "Clear and kind.",
      created_at: LEFT_AT,
      creator: { first_name: "Maya", last_initial: "L." },
      reply: { text: "Thanks!", created_at: "2030-03-03T12:00:00.000Z" },
    });
    expect(JSON.stringify(review)).not.toContain("lind");
    expect(ExpertReview.safeParse(review).success).toBe(true);
  });

  it("a creator without a last name shows by first name alone", () => {
    expect(expertReview(row({ creator_last_name: null })).creator).toEqual({ first_name: "Maya", last_initial: "" });
  });

  it("the booking's parties see until when it can be edited: 14 days after it was first written", () => {
    const reply = bookingReviewReply(row());
    expect(reply.editable_until).toBe("2030-03-15T12:00:00.000Z");
    expect(BookingReviewReply.safeParse(reply).success).toBe(true);
  });
});
