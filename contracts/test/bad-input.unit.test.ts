import { describe, expect, it } from "vitest";
import {
  CalendarCommand,
  ExpertProfileFields,
  SessionDefinition,
  WeeklySchedule,
  errorBody,
  parseInput,
  readDomainEvent,
  refusalMessage,
  type ErrorCode,
  type UpcasterRegistry,
} from "../src/index.ts";

// Bad input is refused at the boundary with a typed refusal carrying the catalogue's message.

function refusedWith(schema: Parameters<typeof parseInput>[0], input: unknown, code: ErrorCode, message?: string) {
  const r = parseInput(schema, input);
  expect(r.ok, `expected ${code}`).toBe(false);
  if (r.ok) return;
  expect(r.refusal.code).toBe(code);
  if (message) expect(refusalMessage(r.refusal)).toBe(message);
}

const slot = (weekday: string, start_local: string, end_local: string) => ({ weekday, start_local, end_local });

describe("weekly schedule", () => {
  it("accepts a valid schedule", () => {
    expect(
      parseInput(WeeklySchedule, {
        timezone: "Pacific/Chatham",
        slots: [slot("monday", "09:00", "12:00"), slot("monday", "12:00", "17:30")],
      }).ok,
    ).toBe(true);
  });
  it.each(["Mars/Olympus_Mons", "", "EST5EDT6", "not a zone", 42])("refuses the unknown timezone %j", (timezone) => {
    refusedWith(WeeklySchedule, { timezone, slots: [] }, "schedule_timezone_invalid");
  });
  it.each(["9:00", "09:15", "24:00", "09:00:00", "nine", "23:60"])("refuses the malformed time %j", (t) => {
    refusedWith(WeeklySchedule, { timezone: "UTC", slots: [slot("monday", t, "17:00")] }, "schedule_time_invalid");
  });
  it("refuses an unknown weekday", () => {
    refusedWith(WeeklySchedule, { timezone: "UTC", slots: [slot("funday", "09:00", "10:00")] }, "schedule_time_invalid");
  });
  it("refuses a backwards or empty slot with the spec's message", () => {
    refusedWith(
      WeeklySchedule,
      { timezone: "UTC", slots: [slot("monday", "17:00", "09:00")] },
      "schedule_end_before_start",
      "End time must be after start time",
    );
    refusedWith(WeeklySchedule, { timezone: "UTC", slots: [slot("monday", "09:00", "09:00")] }, "schedule_end_before_start");
  });
  it("refuses overlapping slots with the spec's message", () => {
    refusedWith(
      WeeklySchedule,
      { timezone: "UTC", slots: [slot("tuesday", "09:00", "12:00"), slot("tuesday", "11:30", "13:00")] },
      "schedule_slots_overlap",
      "You can not add overlapping slots",
    );
  });
  it("allows the same hours on different weekdays", () => {
    expect(
      parseInput(WeeklySchedule, { timezone: "UTC", slots: [slot("monday", "09:00", "12:00"), slot("tuesday", "09:00", "12:00")] }).ok,
    ).toBe(true);
  });
});

describe("session definition", () => {
  const valid = { title: "Intro", priceCents: 5000, lengthMinutes: 30, prepQuestions: ["Why?"] };
  it("accepts a valid session and fills defaults", () => {
    const r = parseInput(SessionDefinition, valid);
    expect(r.ok && r.value).toEqual({ ...valid, description: "", sessionDetails: "", idealFor: [] });
  });
  it("refuses a missing title", () =>
    refusedWith(SessionDefinition, { ...valid, title: "  " }, "session_title_required", "Please enter a session title."));
  it.each([-1, 10.5, Number.NaN, Infinity, "50"])("refuses the price %j", (priceCents) =>
    refusedWith(
      SessionDefinition,
      { ...valid, priceCents },
      "session_price_invalid",
      "Please enter a valid price of at least $1, in dollars and cents.",
    ),
  );
  it.each([0, 15, 45, 61, 180, -30, "30"])("refuses the length %j", (lengthMinutes) =>
    refusedWith(SessionDefinition, { ...valid, lengthMinutes }, "session_length_invalid", "Please choose a valid session length."),
  );
  it.each([[[]], [["a", "b", "c", "d"]], [[""]], ["one"]])("refuses the prep questions %j", (prepQuestions) =>
    refusedWith(SessionDefinition, { ...valid, prepQuestions }, "session_prep_questions_invalid"),
  );
  it("accepts one to three prep questions", () => {
    for (const prepQuestions of [["a"], ["a", "b"], ["a", "b", "c"]])
      expect(parseInput(SessionDefinition, { ...valid, prepQuestions }).ok).toBe(true);
  });
});

describe("expert profile", () => {
  it("requires first and last name, then title, with the spec's messages", () => {
    refusedWith(
      ExpertProfileFields,
      { firstName: "", lastName: "L", title: "T" },
      "profile_names_required",
      "First and Last name are required.",
    );
    refusedWith(ExpertProfileFields, { firstName: "F", lastName: "L", title: "" }, "profile_title_required", "Title is required.");
  });
});

describe("booking commands", () => {
  const base = { expertId: "ex1", bookingId: "b1", actor: { userId: "c1", role: "creator" } };
  it("refuses a malformed scheduled time", () => {
    refusedWith(CalendarCommand, { type: "ProposeTime", ...base, scheduledTime: "tomorrow at noon" }, "scheduled_time_invalid");
    refusedWith(CalendarCommand, { type: "ProposeTime", ...base, scheduledTime: "2026-03-03T10:00:00" }, "scheduled_time_invalid");
  });
  it("normalises a time with an offset to UTC", () => {
    const r = parseInput(CalendarCommand, { type: "ProposeTime", ...base, scheduledTime: "2026-03-03T10:00:00+05:30" });
    expect(r.ok && r.value.type === "ProposeTime" && r.value.scheduledTime).toBe("2026-03-03T04:30:00.000Z");
  });
  it("requires one to three non-empty prep answers (one per question, issue 27.10) and a more-info note", () => {
    refusedWith(CalendarCommand, { type: "SubmitPrep", ...base, answers: [] }, "prep_answers_required");
    refusedWith(CalendarCommand, { type: "SubmitPrep", ...base, answers: ["a", "b", "c", "d"] }, "prep_answers_required");
    refusedWith(CalendarCommand, { type: "SubmitPrep", ...base, answers: ["a", "", "c"] }, "prep_answers_required");
    expect(parseInput(CalendarCommand, { type: "SubmitPrep", ...base, answers: ["a", "b"] }).ok).toBe(true);
    refusedWith(CalendarCommand, { type: "RequestInfo", ...base, note: "   " }, "info_note_required");
  });
  it("refuses an unknown command", () => {
    refusedWith(CalendarCommand, { type: "DoubleBook", ...base }, "invalid_request");
  });
});

describe("error catalogue", () => {
  it("fixes the spec's typos", () => {
    expect(errorBody({ code: "user_already_exists" }).message).toBe("This email is already registered. Try logging in instead.");
    expect(errorBody({ code: "same_password" }).message).toBe("You cannot reuse your old password.");
    expect(errorBody({ code: "session_expired" }).message).toBe("Your session has expired. Please log in again.");
    expect(errorBody({ code: "unknown_error" }).message).toBe("An unknown error occurred.");
  });
  it("fills a message's placeholders", () => {
    expect(refusalMessage({ code: "booking_transition_refused", params: { status: "cancelled", action: "confirmed" } })).toBe(
      "This booking is cancelled and can no longer be confirmed.",
    );
  });
});

describe("event versions", () => {
  it("upcasts an old stored event step by step when read, and validates the result", () => {
    const registry: UpcasterRegistry = {
      Completed: {
        current: 3,
        steps: {
          1: (d) => ({ ...d, booking: d.id }),
          2: ({ booking, ...rest }) => ({ ...rest, bookingId: booking }),
        },
      },
    };
    expect(readDomainEvent("Completed", 1, { id: "b1" }, registry)).toEqual({ type: "Completed", data: { bookingId: "b1" } });
    expect(readDomainEvent("Completed", 3, { bookingId: "b2" }, registry)).toEqual({ type: "Completed", data: { bookingId: "b2" } });
  });
  it("fails loudly on a stored event that does not parse", () => {
    expect(() => readDomainEvent("Completed", 1, { nope: true })).toThrow();
  });
});
