import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { calendarStream } from "@booking/engine";
import { completeSessionsOver } from "../src/bookings/completion-sweeper.ts";
import { expertCalendar, type ExpertCalendar } from "./calendar-bookings.ts";
import { startTestApi, type TestApi, type TestUser } from "./harness.ts";

// A confirmed booking whose session has ended completes on its own; nothing else does.

const START = Date.parse("2030-01-28T08:00:00.000Z");
let now = START;
let api: TestApi;
let calendar: ExpertCalendar;
let creator: TestUser;

beforeAll(async () => {
  api = await startTestApi({ clock: () => new Date(now).toISOString() });
  calendar = await expertCalendar(api, await api.user("expert"));
  creator = await api.user("creator");
});
afterAll(async () => api.close());

const statusOf = async (bookingId: string) =>
  (await api.call("GET", `/api/v1/bookings/${bookingId}`, { user: creator })).json().status as string;

describe("completion sweeper", () => {
  it("completes a confirmed booking once its end has passed, not one still on or a cancelled one; a second run changes nothing", async () => {
    const over = await calendar.confirmedBooking(creator, "2030-01-29T10:00:00.000Z");
    const later = await calendar.confirmedBooking(creator, "2030-01-29T14:00:00.000Z");
    const cancelled = await calendar.confirmedBooking(creator, "2030-01-29T09:00:00.000Z");
    await calendar.run({
      type: "CancelBooking",
      expertId: calendar.expert.id,
      bookingId: cancelled,
      actor: { userId: creator.id, role: "creator" },
      reason: "Moved",
    });

    now = Date.parse("2030-01-29T10:59:00.000Z"); // a minute before the first session ends
    expect(await completeSessionsOver(api.ctx)).toBe(0);
    expect(await statusOf(over)).toBe("confirmed");

    now = Date.parse("2030-01-29T11:00:00.000Z");
    expect(await completeSessionsOver(api.ctx)).toBe(1);
    await new Promise((r) => setTimeout(r, 100)); // the sweeper does not wait for the read models
    expect(await statusOf(over)).toBe("completed");
    expect(await statusOf(later)).toBe("confirmed");
    expect(await statusOf(cancelled)).toBe("cancelled");

    const completions = async () =>
      (await api.ctx.store.readStream(calendarStream(calendar.expert.id))).events.filter((e) => e.type === "Completed");
    expect(await completions()).toHaveLength(1);
    expect(await completeSessionsOver(api.ctx)).toBe(0);
    expect(await completions()).toHaveLength(1);
  });
});
