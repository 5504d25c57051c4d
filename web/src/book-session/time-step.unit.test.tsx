import { screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { DateTime } from "luxon";
import { describe, expect, it, onTestFinished, vi } from "vitest";
import type { Session } from "../shared/api-types.ts";
import { browserZone, clockTime } from "../shared/local-time.ts";
import { fakeApi, renderScreen, signedInAs } from "../../test/screen-harness.tsx";
import { TimeStep } from "./time-step.tsx";

const session = {
  id: "s-1",
  title: "Deck review",
  price: 150,
  length_minutes: 60,
  expert: { id: "e", name: "Maya Lind", first_name: "Maya" },
} as Session;
const zone = browserZone();
const tomorrow = DateTime.now().setZone(zone).plus({ days: 1 }).startOf("day");
const times = [tomorrow.set({ hour: 10 }), tomorrow.set({ hour: 10, minute: 30 })].map((t) => t.toUTC().toISO()!);

describe("select time", () => {
  it("asks for a date and time, then says when the time was just taken and offers the rest", async () => {
    let availability = times;
    const calls = fakeApi({
      "GET /sessions/s-1/availability": () => ({ status: 200, body: { timezone: "Europe/London", times: availability } }),
      "POST /bookings": { status: 409, body: { code: "slot_unavailable", message: "x" } },
    });
    const onBooked = vi.fn();
    renderScreen(<TimeStep session={session} preview={false} onBooked={onBooked} />, { auth: signedInAs("creator") });
    expect(await screen.findByTestId("creator-zone")).toHaveTextContent(zone);
    await userEvent.click(screen.getByRole("button", { name: "Continue" }));
    expect(screen.getByRole("alert")).toHaveTextContent("Please choose a date and time.");
    await userEvent.click(screen.getByRole("button", { name: tomorrow.toFormat("cccc, LLLL d, yyyy") }));
    await userEvent.click(screen.getByRole("button", { name: clockTime(times[0]!, zone) }));
    availability = [times[1]!];
    await userEvent.click(screen.getByRole("button", { name: "Continue" }));
    expect(await screen.findByRole("alert")).toHaveTextContent("That time slot is no longer available. Please pick another.");
    expect(calls.find((c) => c.method === "POST")?.body).toEqual({ session_id: "s-1", scheduled_time: times[0] });
    await waitFor(() => expect(screen.queryByRole("button", { name: clockTime(times[0]!, zone) })).not.toBeInTheDocument());
    expect(onBooked).not.toHaveBeenCalled();
  });

  it("in preview, Continue is disabled", async () => {
    fakeApi({ "GET /sessions/s-1/availability": { status: 200, body: { timezone: "UTC", times } } });
    renderScreen(<TimeStep session={session} preview onBooked={() => undefined} />);
    expect(await screen.findByRole("button", { name: "Continue" })).toBeDisabled();
  });

  // Issue 27.16: the month header read "November 2026" while only December days were bookable.
  it("opens the calendar on the first month with a bookable day", async () => {
    // The walk's day: late November, with the first bookable day in December.
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(new Date("2026-11-27T12:00:00Z"));
    onTestFinished(() => void vi.useRealTimers());
    const nextMonth = DateTime.fromISO("2026-12-02T10:00:00", { zone });
    fakeApi({
      "GET /sessions/s-1/availability": { status: 200, body: { timezone: "UTC", times: [nextMonth.set({ hour: 10 }).toUTC().toISO()!] } },
    });
    renderScreen(<TimeStep session={session} preview={false} onBooked={() => undefined} />, { auth: signedInAs("creator") });
    expect(await screen.findByRole("heading", { name: nextMonth.toFormat("LLLL yyyy") })).toBeInTheDocument();
    expect(screen.getByRole("button", { name: nextMonth.toFormat("cccc, LLLL d, yyyy") })).toBeEnabled();
  });
});
