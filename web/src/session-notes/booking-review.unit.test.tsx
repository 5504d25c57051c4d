import { fireEvent, screen, waitFor } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { BookingReviewReply } from "@booking/contracts";
import { aBooking } from "../../test/booking-fixture.ts";
import { fakeApi, renderScreen, signedInAs } from "../../test/screen-harness.tsx";
import { AppRoutes } from "../routes.tsx";
import { BookingReview } from "./booking-review.tsx";

// Issue 15.4: on a completed booking's notes page its creator leaves a review (1 to 5 stars, up
// to 2,000 characters) and edits it for 14 days; its expert replies once. The server's refusals
// show with the catalogue's message.

afterEach(() => vi.unstubAllGlobals());

const completed = aBooking({ status: "completed", creator_id: "creator-1", expert_id: "expert-1" });
const written: BookingReviewReply = {
  id: "r1",
  booking_id: "b1",
  rating: 4,
  text: "Clear pricing tiers.",
  created_at: "2030-03-05T15:00:00.000Z",
  edited_at: null,
  editable_until: "2030-03-19T15:00:00.000Z",
  reply: null,
  hidden: false,
};
const inTheWindow = () => Date.parse("2030-03-10T00:00:00.000Z");
const afterTheWindow = () => Date.parse("2030-03-19T15:00:00.001Z");

describe("the creator's review", () => {
  it("leaves a review with stars and text, then sees it", async () => {
    const calls = fakeApi({
      "GET /bookings/b1/review": { status: 200, body: { review: null } },
      "POST /bookings/b1/review": { status: 201, body: written },
    });
    renderScreen(<BookingReview booking={completed} now={inTheWindow} />, { auth: signedInAs("creator") });
    const submit = await screen.findByRole("button", { name: "Submit Review" });
    expect(submit).toBeDisabled(); // no stars chosen yet
    fireEvent.click(screen.getByRole("radio", { name: "4 Stars" }));
    fireEvent.change(screen.getByLabelText("Review (optional)"), { target: { value: "Clear pricing tiers." } });
    fireEvent.click(submit);
    expect(await screen.findByRole("button", { name: "Edit Review" })).toBeInTheDocument();
    expect(screen.getByRole("img", { name: "4 out of 5 stars" })).toBeInTheDocument();
    expect(screen.getByText("You can edit your review until Tuesday, March 19, 2030.")).toBeInTheDocument();
    expect(calls.find((c) => c.method === "POST")?.body).toEqual({ rating: 4, text: "Clear pricing tiers." });
  });

  it("cannot send a text over 2,000 characters, and shows the server's refusal", async () => {
    fakeApi({
      "GET /bookings/b1/review": { status: 200, body: { review: null } },
      "POST /bookings/b1/review": {
        status: 409,
        body: { code: "review_already_left", message: "You have already reviewed this session. You can edit your review instead." },
      },
    });
    renderScreen(<BookingReview booking={completed} now={inTheWindow} />, { auth: signedInAs("creator") });
    fireEvent.click(await screen.findByRole("radio", { name: "5 Stars" }));
    fireEvent.change(screen.getByLabelText("Review (optional)"), { target: { value: "x".repeat(2001) } });
    expect(screen.getByText("2001 / 2000 characters")).toBeInTheDocument();
    expect(screen.getByRole("button", { name: "Submit Review" })).toBeDisabled();
    fireEvent.change(screen.getByLabelText("Review (optional)"), { target: { value: "Great" } });
    fireEvent.click(screen.getByRole("button", { name: "Submit Review" }));
    expect(await screen.findByText("You have already reviewed this session. You can edit your review instead.")).toBeInTheDocument();
  });

  it("edits it within 14 days (PATCH, prefilled)", async () => {
    const calls = fakeApi({
      "GET /bookings/b1/review": { status: 200, body: { review: written } },
      "PATCH /bookings/b1/review": { status: 200, body: { ...written, rating: 3, text: "Good." } },
    });
    renderScreen(<BookingReview booking={completed} now={inTheWindow} />, { auth: signedInAs("creator") });
    fireEvent.click(await screen.findByRole("button", { name: "Edit Review" }));
    expect(screen.getByLabelText("Review (optional)")).toHaveValue("Clear pricing tiers.");
    fireEvent.click(screen.getByRole("radio", { name: "3 Stars" }));
    fireEvent.change(screen.getByLabelText("Review (optional)"), { target: { value: "Good." } });
    fireEvent.click(screen.getByRole("button", { name: "Save Review" }));
    expect(await screen.findByRole("img", { name: "3 out of 5 stars" })).toBeInTheDocument();
    expect(calls.find((c) => c.method === "PATCH")?.body).toEqual({ rating: 3, text: "Good." });
  });

  it("after 14 days it can no longer be edited", async () => {
    fakeApi({ "GET /bookings/b1/review": { status: 200, body: { review: written } } });
    renderScreen(<BookingReview booking={completed} now={afterTheWindow} />, { auth: signedInAs("creator") });
    expect(await screen.findByText("Reviews can be edited for 14 days after they are written.")).toBeInTheDocument();
    expect(screen.queryByRole("button", { name: "Edit Review" })).toBeNull();
  });

  it("nothing to review before the session is completed", () => {
    const calls = fakeApi({});
    renderScreen(<BookingReview booking={aBooking({ status: "confirmed", creator_id: "creator-1" })} />, { auth: signedInAs("creator") });
    expect(screen.queryByRole("heading")).toBeNull();
    expect(calls).toEqual([]);
  });
});

describe("the expert's reply", () => {
  it("the expert replies once, in public", async () => {
    const calls = fakeApi({
      "GET /bookings/b1/review": { status: 200, body: { review: written } },
      "POST /bookings/b1/review/reply": {
        status: 201,
        body: { ...written, reply: { text: "Thank you!", created_at: "2030-03-06T09:00:00.000Z" } },
      },
    });
    renderScreen(<BookingReview booking={completed} />, { auth: signedInAs("expert") });
    expect(await screen.findByText("Clear pricing tiers.")).toBeInTheDocument();
    expect(screen.queryByRole("button", { name: "Submit Review" })).toBeNull();
    fireEvent.change(screen.getByLabelText("Your public reply"), { target: { value: "Thank you!" } });
    fireEvent.click(screen.getByRole("button", { name: "Post Reply" }));
    expect(await screen.findByText("Thank you!")).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole("button", { name: "Post Reply" })).toBeNull());
    expect(calls.find((c) => c.method === "POST")?.body).toEqual({ text: "Thank you!" });
  });
});

describe("where the creator finds it", () => {
  it("a completed booking's Session Details page (which the creator's dashboard links) asks its creator for a review", async () => {
    fakeApi({ "GET /bookings/b1": { status: 200, body: completed }, "GET /bookings/b1/review": { status: 200, body: { review: null } } });
    renderScreen(<AppRoutes />, { route: "/session-details/b1", path: "/*", auth: signedInAs("creator") });
    expect(await screen.findByRole("heading", { name: "Review this session" })).toBeInTheDocument();
    expect(screen.getByRole("button", { name: "Submit Review" })).toBeDisabled();
  });
});
