import { describe, expect, it } from "vitest";
import { ScheduleRecord, type DomainEvent, type WeeklySlot } from "@booking/contracts";
import { scheduleReply, schedulesProjection } from "../src/index.ts";
import { givenAt, readModelSpec, type GivenEvent } from "./read-model-spec.ts";

// The schedules read model's rule without a database: given these events, then these rows.

const spec = readModelSpec(schedulesProjection);
const monday: WeeklySlot = { weekday: "monday", start_local: "09:00", end_local: "12:00" };
const set = (timezone: string, slots: WeeklySlot[]): GivenEvent => ({
  stream: "calendar-e1",
  event: { type: "ScheduleSet", data: { expertId: "e1", timezone, slots } },
});

describe("schedules read model: given events, then rows", () => {
  it("a schedule set is a row of the contracts' shape", () => {
    const given = spec.given(set("Europe/London", [monday]));
    given.then([
      {
        expert_id: "e1",
        timezone: "Europe/London",
        slots: [monday],
        time_off: [],
        date_overrides: [],
        buffer_before_minutes: 0,
        buffer_after_minutes: 0,
        min_notice_hours: 0,
        external_busy: {},
        updated_at: givenAt(0),
        stream_version: 1,
      },
    ]);
    expect(ScheduleRecord.safeParse(given.rows()[0]).success).toBe(true);
  });

  it("keeps each connected calendar's busy times, replaced by its next sync and gone when it is disconnected (issue 32)", () => {
    const busy = (start: string, end: string) => [{ start, end }];
    const synced = (sourceId: string, b: { start: string; end: string }[]): GivenEvent => ({
      stream: "calendar-e1",
      event: {
        type: "ExternalBusyTimesSynced",
        data: { expertId: "e1", sourceId, from: "2030-01-01T00:00:00.000Z", to: "2030-02-01T00:00:00.000Z", busy: b },
      },
    });
    const dentist = busy("2030-01-08T13:00:00.000Z", "2030-01-08T14:30:00.000Z");
    const moved = busy("2030-01-08T15:00:00.000Z", "2030-01-08T16:00:00.000Z");
    const removed: GivenEvent = {
      stream: "calendar-e1",
      event: { type: "ExternalBusyTimesRemoved", data: { expertId: "e1", sourceId: "google" } },
    };
    spec
      .given(set("Europe/London", [monday]), synced("google", dentist), synced("work", dentist))
      .then([{ external_busy: { google: dentist, work: dentist } }]);
    spec
      .given(set("Europe/London", [monday]), synced("google", dentist), synced("google", moved))
      .then([{ external_busy: { google: moved } }]);
    spec
      .given(set("Europe/London", [monday]), synced("google", dentist), synced("work", moved), removed)
      .then([{ external_busy: { work: moved } }]);
    // A schedule set again keeps them.
    spec
      .given(set("Europe/London", [monday]), synced("google", dentist), set("UTC", [monday]))
      .then([{ external_busy: { google: dentist } }]);
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
      bookingId: "b1",
      expertId: "e1",
      expertUserId: "u-expert",
      creatorId: "u-creator",
      sessionId: "s1",
      sessionTitle: "Pricing review",
      lengthMinutes: 60,
      priceCents: 15_000,
      prepQuestions: ["Goal?"],
      scheduledTime: "2030-02-01T10:00:00.000Z",
      heldUntil: "2030-01-06T09:30:00.000Z",
    };
    spec
      .given(set("Europe/London", [monday]), { stream: "calendar-e1", event: { type: "BookingRequested", data: booking } })
      .then([{ updated_at: givenAt(0), stream_version: 1 }]);
  });
});

describe("schedules read model: time off, extra hours and booking rules", () => {
  const on = (event: DomainEvent): GivenEvent => ({ stream: "calendar-e1", event });
  const timeOff = (timeOffId: string, start: string, end: string, reason = ""): GivenEvent =>
    on({ type: "TimeOffAdded", data: { expertId: "e1", timeOffId, start, end, reason } });
  const extra = (overrideId: string, date: string, start_local: string, end_local: string): GivenEvent =>
    on({ type: "DateOverrideAdded", data: { expertId: "e1", overrideId, date, start_local, end_local } });

  it("time off and extra hours are added and removed by id, whole days marked as such", () => {
    const given = spec.given(
      set("Europe/London", [monday]),
      timeOff("t1", "2030-02-01T00:00", "2030-02-08T00:00", "Holiday"),
      timeOff("t2", "2030-02-10T13:00", "2030-02-10T15:30"),
      extra("x1", "2030-02-12", "18:00", "20:00"),
      on({ type: "TimeOffRemoved", data: { expertId: "e1", timeOffId: "t1" } }),
      extra("x2", "2030-02-13", "07:00", "08:00"),
      on({ type: "DateOverrideRemoved", data: { expertId: "e1", overrideId: "x2" } }),
    );
    given.then([
      {
        time_off: [{ id: "t2", start: "2030-02-10T13:00", end: "2030-02-10T15:30", reason: "", whole_days: false }],
        date_overrides: [{ id: "x1", date: "2030-02-12", start_local: "18:00", end_local: "20:00" }],
        updated_at: givenAt(6),
        stream_version: 7,
      },
    ]);
    expect(ScheduleRecord.safeParse(given.rows()[0]).success).toBe(true);
    expect(
      spec.given(set("Europe/London", [monday]), timeOff("t1", "2030-02-01T00:00", "2030-02-08T00:00", "Holiday")).rows()[0]!.time_off,
    ).toEqual([{ id: "t1", start: "2030-02-01T00:00", end: "2030-02-08T00:00", reason: "Holiday", whole_days: true }]);
  });

  it("rules set replace the rules; a schedule set again keeps time off, extra hours and rules", () => {
    spec
      .given(
        set("Europe/London", [monday]),
        on({ type: "BookingRulesSet", data: { expertId: "e1", bufferBeforeMinutes: 10, bufferAfterMinutes: 30, minNoticeHours: 12 } }),
        timeOff("t1", "2030-02-01T00:00", "2030-02-02T00:00"),
        extra("x1", "2030-02-12", "18:00", "20:00"),
        set("America/New_York", []),
      )
      .then([
        {
          timezone: "America/New_York",
          slots: [],
          buffer_before_minutes: 10,
          buffer_after_minutes: 30,
          min_notice_hours: 12,
          time_off: [{ id: "t1" }],
          date_overrides: [{ id: "x1" }],
          stream_version: 5,
        },
      ]);
  });

  it("the reply shows time off and extra hours not yet over, earliest first, and the rules only to the expert's own view", () => {
    const row = spec
      .given(
        set("Europe/London", [monday]),
        timeOff("later", "2030-03-01T00:00", "2030-03-02T00:00"),
        timeOff("over", "2030-02-01T09:00", "2030-02-01T10:00"),
        timeOff("now", "2030-02-10T09:00", "2030-02-10T12:00"),
        extra("past", "2030-02-09", "18:00", "20:00"),
        extra("today", "2030-02-10", "18:00", "20:00"),
      )
      .rows()[0] as ScheduleRecord;
    const own = scheduleReply(row, [], { nowLocal: "2030-02-10T10:00" });
    expect(own.time_off?.map((t) => t.id)).toEqual(["now", "later"]);
    expect(own.date_overrides?.map((o) => o.id)).toEqual(["today"]);
    expect(own.booking_rules).toEqual({ buffer_before_minutes: 0, buffer_after_minutes: 0, min_notice_hours: 0 });
    expect(Object.keys(scheduleReply(row, []))).toEqual(["timezone", "slots", "booked"]);
  });

  it("nothing but a schedule makes a row", () => {
    spec.given(timeOff("t1", "2030-02-01T00:00", "2030-02-02T00:00")).then([]);
  });
});
