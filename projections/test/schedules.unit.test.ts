import { describe, expect, it } from "vitest";
import { ScheduleRecord, type WeeklySlot } from "@booking/contracts";
import { schedulesProjection } from "../src/index.ts";
import { givenAt, readModelSpec, type GivenEvent } from "./read-model-spec.ts";

// The schedules read model's rule without a database: given these events, then these rows.

const spec = readModelSpec(schedulesProjection);
const monday: WeeklySlot = { weekday: "monday", start_local: "09:00", end_local: "12:00" };
const set = (timezone: string, slots: WeeklySlot[]): GivenEvent => ({ stream: "calendar-e1", event: { type: "ScheduleSet", data: { expertId: "e1", timezone, slots } } });

describe("schedules read model: given events, then rows", () => {
  it("a schedule set is a row of the contracts' shape", () => {
    const given = spec.given(set("Europe/London", [monday]));
    given.then([{ expert_id: "e1", timezone: "Europe/London", slots: [monday], updated_at: givenAt(0), stream_version: 1 }]);
    expect(ScheduleRecord.safeParse(given.rows()[0]).success).toBe(true);
  });

  it("a schedule set again replaces the one before: zone and slots, none kept", () => {
    const friday: WeeklySlot = { weekday: "friday", start_local: "14:00", end_local: "16:30" };
    const given = spec.given(set("Europe/London", [monday]), set("America/New_York", [friday]));
    given.then([{ timezone: "America/New_York", updated_at: givenAt(1), stream_version: 2 }]);
    expect(given.rows()[0]!.slots).toEqual([friday]);
  });

  it("an emptied schedule is a row with no slots", () => {
    spec.given(set("Europe/London", [monday]), set("Europe/London", [])).then([{ slots: [], stream_version: 2 }]);
  });

  it("bookings on the same calendar leave the schedule as it is", () => {
    const booking = {
      bookingId: "b1", expertId: "e1", expertUserId: "u-expert", creatorId: "u-creator", sessionId: "s1", sessionTitle: "Pricing review",
      lengthMinutes: 60, priceCents: 15_000, prepQuestions: ["Goal?"], scheduledTime: "2030-02-01T10:00:00.000Z", heldUntil: "2030-01-06T09:30:00.000Z",
    };
    spec.given(set("Europe/London", [monday]), { stream: "calendar-e1", event: { type: "BookingRequested", data: booking } }).then([{ updated_at: givenAt(0), stream_version: 1 }]);
  });
});
