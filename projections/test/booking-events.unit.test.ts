import { describe, expect, it } from "vitest";
import { BookingEventRecord, type DomainEvent } from "@booking/contracts";
import { bookingEventsProjection } from "../src/index.ts";
import { givenAt, readModelSpec } from "./read-model-spec.ts";

// The booking_events read model's rule without a database: given these events, then these rows.

const spec = readModelSpec(bookingEventsProjection);
const requested: DomainEvent = {
  type: "BookingRequested",
  data: {
    bookingId: "b1", expertId: "e1", expertUserId: "u-expert", creatorId: "u-creator", sessionId: "s1", sessionTitle: "Pricing review",
    lengthMinutes: 45, priceCents: 15_000, prepQuestions: ["Goal?"], scheduledTime: "2030-02-01T10:00:00.000Z", heldUntil: "2030-01-06T09:15:00.000Z",
  },
};
const confirmed: DomainEvent = { type: "Confirmed", data: { bookingId: "b1", by: "expert" } };

describe("booking_events read model: given events, then rows", () => {
  it("each event of a booking on its expert's calendar is a row of the contracts' shape, in the booking's history", () => {
    const given = spec.given({ stream: "calendar-e1", event: requested }, { stream: "calendar-e1", event: confirmed });
    given.then([
      { event_id: "ev-0", booking_id: "b1", expert_id: "e1", stream_version: 1, type: "BookingRequested", actor: null, occurred_at: givenAt(0), position: "1:1" },
      { event_id: "ev-1", booking_id: "b1", expert_id: "e1", stream_version: 2, type: "Confirmed", data: { bookingId: "b1", by: "expert" }, occurred_at: givenAt(1) },
    ]);
    for (const row of given.rows()) expect(BookingEventRecord.safeParse(row).success).toBe(true);
  });

  it("only calendar streams hold bookings' history: the same event elsewhere makes no row", () => {
    spec.given({ stream: "session-s1", event: confirmed }, { stream: "user-u1", event: requested }).then([]);
  });

  it("a calendar event that concerns no booking (the schedule) makes no row", () => {
    spec.given({ stream: "calendar-e1", event: { type: "ScheduleSet", data: { expertId: "e1", timezone: "UTC", slots: [] } } }).then([]);
  });
});
