import { describe, expect, it } from "vitest";
import type { StoredEvent } from "@booking/contracts";
import { BookingPartyBook, type BookingParties, type EventBody } from "../src/personal-data/index.ts";

// Whose data a booking's party-owned fields are (issue 33.1): the creator and the expert (as a user) the booking's
// request named, found in the same append, in memory, in the bookings read model or, where that lags, in the log; and
// on an expert's own streams the user whose profile the expert id is (an expert id is not a user id).

const EXPERT_ID = "expert-7";
const EXPERT_USER = "user-of-expert-7";
const CREATOR = "creator-3";
const requested = (bookingId: string, creator = CREATOR): EventBody => ({
  type: "BookingRequested",
  data: { bookingId, expertId: EXPERT_ID, expertUserId: EXPERT_USER, creatorId: creator, sessionId: "s" },
});
const profile: EventBody = { type: "ExpertProfileSaved", data: { expertId: EXPERT_ID, userId: EXPERT_USER, slug: "x" } };
const stored = (e: EventBody): StoredEvent => ({
  ...e,
  eventId: "e",
  streamId: "s",
  version: 1,
  position: { commit: 1n, prepare: 1n },
  schemaVersion: 1,
  metadata: { at: "" },
  recordedAt: "",
});
const prep = (bookingId: string): EventBody => ({ type: "PrepSubmitted", data: { bookingId, answers: ["a"] } });

/** A book over a log of `streams` and a bookings read model of `rows`, counting what it reads. */
function book(streams: Record<string, EventBody[]>, rows: Record<string, BookingParties> = {}, withReadModel = true) {
  const reads = { log: [] as string[], db: 0 };
  const log = {
    readStream: async (id: string) => {
      reads.log.push(id);
      const events = (streams[id] ?? []).map(stored);
      return { version: events.length, events };
    },
  };
  const bookings = async (bookingId: string) => (reads.db++, rows[bookingId] ?? null);
  return { parties: new BookingPartyBook(withReadModel ? { log, bookings } : { log }), reads };
}

describe("a booking's parties", () => {
  it("come from the request in the same append, then from memory once it is written, without a read", async () => {
    const { parties, reads } = book({});
    const calendar = `calendar-${EXPERT_ID}`;
    expect(await parties.partiesOf(calendar, prep("b1"), [requested("b1")])).toEqual({ creator: CREATOR, expert: EXPERT_USER });
    parties.written(calendar, [requested("b2", "creator-9")]);
    expect(await parties.partiesOf(calendar, prep("b2"), [])).toEqual({ creator: "creator-9", expert: EXPERT_USER });
    expect(reads).toEqual({ log: [], db: 0 });
  });

  it("come from the bookings read model, then the calendar's request where the read model has not caught up", async () => {
    const calendar = `calendar-${EXPERT_ID}`;
    const { parties, reads } = book(
      { [calendar]: [requested("b-old"), requested("b-new", "creator-new")] },
      {
        "b-old": { creator: CREATOR, expert: EXPERT_USER },
      },
    );
    expect(await parties.partiesOf(calendar, prep("b-old"), [])).toEqual({ creator: CREATOR, expert: EXPERT_USER });
    expect(reads.log).toEqual([]);
    expect(await parties.partiesOf(calendar, prep("b-new"), [])).toEqual({ creator: "creator-new", expert: EXPERT_USER });
    expect(reads.log).toEqual([calendar]);
    // Remembered: asked again, nothing is read.
    await parties.partiesOf(calendar, prep("b-new"), []);
    expect(reads).toEqual({ log: [calendar], db: 2 });
  });

  it("of a review come from its ReviewLeft where nothing else knows the booking (a process without read models)", async () => {
    const review = "review-b5";
    const left: EventBody = { type: "ReviewLeft", data: { bookingId: "b5", expertId: EXPERT_ID, creatorId: CREATOR, text: "Great" } };
    const { parties } = book({ [review]: [left], [`expert-${EXPERT_ID}`]: [profile] }, {}, false);
    const reply: EventBody = { type: "ReviewReplied", data: { bookingId: "b5", expertId: EXPERT_ID, text: "Thanks" } };
    expect(await parties.partiesOf(review, reply, [])).toEqual({ creator: CREATOR, expert: EXPERT_USER });
    expect(await parties.partiesOf(review, left, [])).toEqual({ creator: CREATOR, expert: EXPERT_USER });
  });

  it("are none when nobody knows the booking: the sealing store then refuses the event rather than store it in clear", async () => {
    const { parties } = book({});
    expect(await parties.partiesOf(`calendar-${EXPERT_ID}`, prep("b-unknown"), [])).toEqual({});
  });
});

describe("an expert's own streams", () => {
  it("name the user whose profile the expert id is, read once from the expert's stream", async () => {
    const { parties, reads } = book({ [`expert-${EXPERT_ID}`]: [profile] });
    const paused: EventBody = { type: "BookingsPaused", data: { expertId: EXPERT_ID, by: "admin", reason: "Complaints" } };
    expect(await parties.partiesOf(`calendar-${EXPERT_ID}`, paused, [])).toEqual({ expert: EXPERT_USER });
    const held: EventBody = { type: "PayoutsHeld", data: { expertId: EXPERT_ID, by: "admin", reason: "Checking" } };
    expect(await parties.partiesOf(`payouts-${EXPERT_ID}`, held, [])).toEqual({ expert: EXPERT_USER });
    const verified: EventBody = { type: "ExpertVerified", data: { expertId: EXPERT_ID, by: "admin", reason: "Good" } };
    expect(await parties.partiesOf(`expert-${EXPERT_ID}`, verified, [])).toEqual({ expert: EXPERT_USER });
    expect(reads.log).toEqual([`expert-${EXPERT_ID}`]);
  });

  it("name the profile saved in the same append, and before any profile the expert id itself (the API's expert id is the account's)", async () => {
    const { parties } = book({});
    const noted: EventBody = { type: "ApplicationNoted", data: { expertId: EXPERT_ID, by: "admin", at: "", note: "Call back" } };
    expect(await parties.partiesOf(`expert-${EXPERT_ID}`, noted, [profile])).toEqual({ expert: EXPERT_USER });
    const timeOff: EventBody = {
      type: "TimeOffAdded",
      data: { expertId: "expert-new", timeOffId: "t", start: "", end: "", reason: "Surgery" },
    };
    expect(await parties.partiesOf("calendar-expert-new", timeOff, [])).toEqual({ expert: "expert-new" });
  });
});
