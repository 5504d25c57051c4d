import type { CreatorKey, ExpertKey } from "./cast.ts";

// What is still to come in the demo marketplace: bookings made on the first start through the
// public API, left as the expert's answer leaves them. Days count from today on the expert's
// calendar; hours are on the expert's wall clock.

export type UpcomingBooking = {
  expert: ExpertKey;
  session: number;
  creator: CreatorKey;
  day: number;
  hour: number;
  prep: [string, string, string];
  /** Where it is left: the expert confirmed it, it waits for the expert, or the expert proposed another time (a day later at `proposeHour`). */
  state: "confirmed" | "pending" | "time_proposed";
  proposeHour?: number;
};

/** Bookings to come, made on the first start through the public API: requested, paid with the test card, and answered or not. */
export const UPCOMING_BOOKINGS: readonly UpcomingBooking[] = [
  {
    expert: "priya",
    session: 0,
    creator: "leo",
    day: 2,
    hour: 15,
    state: "confirmed",
    prep: ["Thumbnails for a new series.", "Series launches next month.", "Sketched three ideas."],
  },
  {
    expert: "ava",
    session: 1,
    creator: "daniel",
    day: 2,
    hour: 11,
    state: "pending",
    prep: ["A look at the redesigned channel.", "New banner and trailer are live.", "Followed the notes from last time."],
  },
  {
    expert: "marcus",
    session: 0,
    creator: "casey",
    day: 3,
    hour: 14,
    state: "confirmed",
    prep: [
      "Review a second offer from the skincare brand.",
      "They came back with a bigger package.",
      "Used the counter we prepared last time.",
    ],
  },
  {
    expert: "ava",
    session: 0,
    creator: "maya",
    day: 4,
    hour: 13,
    state: "confirmed",
    prep: ["Plan the podcast's second season.", "Season one ended with 5,000 listeners.", "Collected listener feedback."],
  },
  {
    expert: "jordan",
    session: 1,
    creator: "casey",
    day: 5,
    hour: 12,
    state: "pending",
    prep: ["Feedback on the first co-hosted episode.", "Recorded with my co-host last week.", "We edited it twice."],
  },
  {
    expert: "ava",
    session: 0,
    creator: "casey",
    day: 8,
    hour: 10,
    state: "time_proposed",
    proposeHour: 15,
    prep: ["Plan my next quarter of posts.", "Saves doubled since our last session.", "Kept the three-posts-a-week rhythm."],
  },
];
