import { describe, expect, it } from "vitest";
import { BookingEventRecord, type DomainEvent } from "@booking/contracts";
import { bookingEventsProjection } from "../src/index.ts";
import { givenAt, readModelSpec } from "./read-model-spec.ts";

// The booking_events read model's rule without a database: given these events, then these rows.

const spec = readModelSpec(bookingEventsProjection);
const requested: DomainEvent = {
  type: "BookingRequested",
  data: {
    bookingId: "b1",
    expertId: "e1",
    expertUserId: "u-expert",
    creatorId: "u-creator",
    sessionId: "s1",
    sessionTitle: "Pricing review",
    lengthMinutes: 45,
    priceCents: 15_000,
    prepQuestions: ["Goal?"],
    scheduledTime: "2030-02-01T10:00:00.000Z",
    heldUntil: "2030-01-06T09:15:00.000Z",
  },
};
const confirmed: DomainEvent = { type: "Confirmed", data: { bookingId: "b1", by: "expert" } };

describe("booking_events read model: given events, then rows", () => {
  it("each event of a booking on its expert's calendar is a row of the contracts' shape, in the booking's history", () => {
    const given = spec.given({ stream: "calendar-e1", event: requested }, { stream: "calendar-e1", event: confirmed });
    given.then([
      {
        event_id: "ev-0",
        booking_id: "b1",
        expert_id: "e1",
        stream_version: 1,
        type: "BookingRequested",
        actor: null,
        occurred_at: givenAt(0),
        position: "1:1",
      },
      {
        event_id: "ev-1",
        booking_id: "b1",
        expert_id: "e1",
        stream_version: 2,
        type: "Confirmed",
        data: { bookingId: "b1", by: "expert" },
        occurred_at: givenAt(1),
      },
    ]);
    for (const row of given.rows()) expect(BookingEventRecord.safeParse(row).success).toBe(true);
  });

  it("only calendar streams hold bookings' history: the same event elsewhere makes no row", () => {
    spec.given({ stream: "session-s1", event: confirmed }, { stream: "user-u1", event: requested }).then([]);
  });

  it("a calendar event that concerns no booking (the schedule) makes no row", () => {
    spec.given({ stream: "calendar-e1", event: { type: "ScheduleSet", data: { expertId: "e1", timezone: "UTC", slots: [] } } }).then([]);
  });

  it("every move of a booking is in its history: asked, declined, asked again, accepted (issue 17)", () => {
    const move = (to: string) => ({ bookingId: "b1", from: "2030-02-01T10:00:00.000Z", to });
    const events: DomainEvent[] = [
      requested,
      confirmed,
      { type: "RescheduleRequested", data: { ...move("2030-02-02T10:00:00.000Z"), by: "creator" } },
      { type: "RescheduleDeclined", data: { ...move("2030-02-02T10:00:00.000Z"), by: "expert", reason: "Away" } },
      { type: "RescheduleRequested", data: { ...move("2030-02-03T10:00:00.000Z"), by: "creator" } },
      { type: "RescheduleWithdrawn", data: { ...move("2030-02-03T10:00:00.000Z"), by: "creator" } },
      { type: "RescheduleRequested", data: { ...move("2030-02-04T10:00:00.000Z"), by: "creator" } },
      { type: "RescheduleAccepted", data: { ...move("2030-02-04T10:00:00.000Z"), by: "expert" } },
      { type: "JoinLinkSet", data: { bookingId: "b1", url: "https://meet.example.com/x", by: "expert" } },
    ];
    const given = spec.given(...events.map((event) => ({ stream: "calendar-e1", event })));
    expect(given.rows().map((r) => [r.type, r.stream_version, (r.data as { to?: string }).to ?? null])).toEqual([
      ["BookingRequested", 1, null],
      ["Confirmed", 2, null],
      ["RescheduleRequested", 3, "2030-02-02T10:00:00.000Z"],
      ["RescheduleDeclined", 4, "2030-02-02T10:00:00.000Z"],
      ["RescheduleRequested", 5, "2030-02-03T10:00:00.000Z"],
      ["RescheduleWithdrawn", 6, "2030-02-03T10:00:00.000Z"],
      ["RescheduleRequested", 7, "2030-02-04T10:00:00.000Z"],
      ["RescheduleAccepted", 8, "2030-02-04T10:00:00.000Z"],
      ["JoinLinkSet", 9, null],
    ]);
    for (const row of given.rows()) expect(BookingEventRecord.safeParse(row).success).toBe(true);
  });
});
