import { fireEvent, screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import { fakeApi, renderScreen, signedInAs } from "../../test/screen-harness.tsx";
import type { BookingInTimeOff, Schedule } from "../shared/api-types.ts";
import { ExpertTime } from "./schedule-tab.tsx";
import { noticeHours, timeOffBody, timeOffErrors, timeOffLabel } from "./time-off-form.ts";

// Issue 17.4-5 on the expert's Schedule tab: time off (whole days or hours, with a label), the
// bookings it covers listed to handle, extra hours on a date, buffers and minimum notice, in the
// expert's timezone.

const auth = signedInAs("expert", { id: "ux1", expert_id: "ux1" });
const ZONE = "Europe/London";
const schedule = (change: Partial<Schedule> = {}): Schedule => ({
  timezone: ZONE,
  slots: [],
  booked: [],
  time_off: [],
  date_overrides: [],
  booking_rules: { buffer_before_minutes: 0, buffer_after_minutes: 0, min_notice_hours: 0 },
  ...change,
});
const inTimeOff: BookingInTimeOff = {
  booking_id: "b7",
  status: "confirmed",
  scheduled_time: "2030-07-02T09:00:00.000Z",
  length_minutes: 60,
  session_title: "Deck review",
  creator_id: "c1",
  time_off_ids: ["t9"],
};
const timeOffForm = () => within(screen.getByRole("form", { name: "Add time off" }));
const setDate = (label: string, value: string) => fireEvent.change(timeOffForm().getByLabelText(label), { target: { value } });

describe("time off", () => {
  it("lists the planned periods in the expert's words and zone; removing one asks the API", async () => {
    const calls = fakeApi({
      "GET /experts/ux1/time-off/affected-bookings": { status: 200, body: [] },
      "DELETE /experts/ux1/time-off/t1": { status: 204 },
    });
    renderScreen(
      <ExpertTime
        expertId="ux1"
        schedule={schedule({
          time_off: [
            { id: "t1", start: "2030-07-01T00:00", end: "2030-07-08T00:00", reason: "Summer", whole_days: true },
            { id: "t2", start: "2030-07-10T12:00", end: "2030-07-10T14:30", reason: "", whole_days: false },
          ],
        })}
      />,
      { auth },
    );
    expect(screen.getByTestId("expert-zone")).toHaveTextContent(
      "Time off and extra hours are in your timezone: London time (Europe/London)",
    );
    const listed = within(screen.getByRole("list", { name: "Planned time off" }))
      .getAllByRole("listitem")
      .map((li) => li.textContent);
    expect(listed).toEqual(["Mon, Jul 1, 2030 – Sun, Jul 7, 2030 · SummerRemove", "Wed, Jul 10, 2030, 12:00 PM – 2:30 PM" + "Remove"]);
    await userEvent.click(screen.getByRole("button", { name: "Remove time off Mon, Jul 1, 2030 – Sun, Jul 7, 2030" }));
    expect(await screen.findByRole("status")).toHaveTextContent("Time off removed: Mon, Jul 1, 2030 – Sun, Jul 7, 2030.");
    expect(calls.filter((c) => c.method === "DELETE").map((c) => c.path)).toEqual(["/experts/ux1/time-off/t1"]);
  });

  it("adds whole days with a label; the bookings now in time off are listed with a link to manage each", async () => {
    let added = false;
    const calls = fakeApi({
      "GET /experts/ux1/time-off/affected-bookings": () => ({ status: 200, body: added ? [inTimeOff] : [] }),
      "POST /experts/ux1/time-off": () => {
        added = true;
        return {
          status: 201,
          body: {
            time_off: { id: "t9", start: "2030-07-01T00:00", end: "2030-07-03T00:00", reason: "Conference", whole_days: true },
            affected_bookings: [inTimeOff],
          },
        };
      },
    });
    renderScreen(<ExpertTime expertId="ux1" schedule={schedule()} />, { auth });
    expect(screen.getByText("No time off planned.")).toBeInTheDocument();
    expect(screen.queryByTestId("bookings-in-time-off")).not.toBeInTheDocument();
    setDate("First day", "2030-07-01");
    setDate("Last day", "2030-06-30");
    await userEvent.type(timeOffForm().getByLabelText("Label (optional)"), " Conference ");
    await userEvent.click(screen.getByRole("button", { name: "Add time off" }));
    expect(screen.getByText("The last day cannot be before the first.")).toBeInTheDocument();
    expect(calls.filter((c) => c.method === "POST")).toHaveLength(0);
    setDate("Last day", "2030-07-02");
    await userEvent.click(screen.getByRole("button", { name: "Add time off" }));
    expect(await screen.findByRole("status")).toHaveTextContent("Time off added: Mon, Jul 1, 2030 – Tue, Jul 2, 2030.");
    expect(calls.find((c) => c.method === "POST")?.body).toEqual({
      start_date: "2030-07-01",
      end_date: "2030-07-02",
      reason: "Conference",
    });
    const handle = screen.getByTestId("bookings-in-time-off");
    expect(handle).toHaveTextContent("These bookings fall in your time off: handle them");
    expect(handle).toHaveTextContent("Deck review · Tuesday, July 2, 2030, 10:00 AM (Europe/London, GMT+1)");
    expect(within(handle).getByRole("link", { name: "Manage this booking" })).toHaveAttribute("href", "/manage-booking/b7");
  });

  it("shows bookings already in time off when the tab opens, and adds some hours; a refusal is the catalogue's", async () => {
    const calls = fakeApi({
      "GET /experts/ux1/time-off/affected-bookings": { status: 200, body: [inTimeOff] },
      "POST /experts/ux1/time-off": {
        status: 409,
        body: {
          code: "time_off_limit",
          message: "You can have at most 100 upcoming periods of time off. Remove one before adding another.",
        },
      },
    });
    renderScreen(<ExpertTime expertId="ux1" schedule={schedule()} />, { auth });
    expect(await screen.findByTestId("bookings-in-time-off")).toHaveTextContent("Deck review");
    await userEvent.click(screen.getByLabelText("Some hours"));
    setDate("From date", "2030-07-03");
    setDate("Until date", "2030-07-03");
    await userEvent.selectOptions(timeOffForm().getByLabelText("From time"), "13:00");
    // On the same day only later end times are offered.
    expect(
      [...(timeOffForm().getByLabelText("Until time") as HTMLSelectElement).options].some((o) => o.value === "12:30" && !o.disabled),
    ).toBe(false);
    await userEvent.selectOptions(timeOffForm().getByLabelText("Until time"), "15:30");
    await userEvent.click(screen.getByRole("button", { name: "Add time off" }));
    expect(await screen.findByRole("alert")).toHaveTextContent(
      "You can have at most 100 upcoming periods of time off. Remove one before adding another.",
    );
    expect(calls.find((c) => c.method === "POST")?.body).toEqual({ start: "2030-07-03T13:00", end: "2030-07-03T15:30" });
  });

  it("asks for the weekly schedule first: time off is read on its zone's clock", () => {
    fakeApi({});
    renderScreen(<ExpertTime expertId="ux1" schedule={schedule({ timezone: null })} />, { auth });
    expect(
      screen.getByText("Save your weekly availability first; then you can add time off, extra hours, buffers and notice."),
    ).toBeInTheDocument();
    expect(screen.queryByRole("form", { name: "Add time off" })).not.toBeInTheDocument();
  });

  it("rules: labels across days and a DST change, bodies, and what blocks sending", () => {
    expect(timeOffLabel({ start: "2026-03-29T00:00", end: "2026-03-30T00:00", whole_days: true })).toBe("Sun, Mar 29, 2026");
    // 01:30 does not exist in London that night; the wall clock still names it.
    expect(timeOffLabel({ start: "2026-03-29T01:30", end: "2026-03-29T03:00", whole_days: false })).toBe(
      "Sun, Mar 29, 2026, 1:30 AM – 3:00 AM",
    );
    expect(timeOffLabel({ start: "2026-03-29T22:00", end: "2026-03-30T00:00", whole_days: false })).toBe(
      "Sun, Mar 29, 2026, 10:00 PM – Mon, Mar 30, 2026, 12:00 AM",
    );
    expect(
      timeOffBody({ kind: "hours", startDate: "2030-01-01", startTime: "22:00", endDate: "2030-01-02", endTime: "00:00", reason: "  " }),
    ).toEqual({ start: "2030-01-01T22:00", end: "2030-01-02T00:00" });
    expect(
      timeOffErrors({ kind: "hours", startDate: "2030-01-01", startTime: "10:00", endDate: "2030-01-01", endTime: "10:00", reason: "" }),
    ).toEqual({ endTime: "The end must be after the start." });
    expect(timeOffErrors({ kind: "days", startDate: "", endDate: "2030-01-01", reason: "x".repeat(201) })).toEqual({
      startDate: "Please choose a date.",
      reason: "Please keep the label to 200 characters or fewer.",
    });
    expect([
      noticeHours("12"),
      noticeHours(" 0 "),
      noticeHours("168"),
      noticeHours("169"),
      noticeHours("1.5"),
      noticeHours("-1"),
      noticeHours(""),
    ]).toEqual([12, 0, 168, null, null, null, null]);
  });
});

describe("extra hours", () => {
  it("lists them, adds hours on a date and removes them", async () => {
    const calls = fakeApi({
      "GET /experts/ux1/time-off/affected-bookings": { status: 200, body: [] },
      "POST /experts/ux1/date-overrides": (body) => ({ status: 201, body: { date_override: { id: "o2", ...(body as object) } } }),
      "DELETE /experts/ux1/date-overrides/o1": { status: 204 },
    });
    renderScreen(
      <ExpertTime
        expertId="ux1"
        schedule={schedule({ date_overrides: [{ id: "o1", date: "2030-07-06", start_local: "10:00", end_local: "12:00" }] })}
      />,
      { auth },
    );
    const form = within(screen.getByRole("form", { name: "Add extra hours" }));
    expect(within(screen.getByRole("list", { name: "Planned extra hours" })).getByRole("listitem")).toHaveTextContent(
      "Sat, Jul 6, 2030, 10:00 AM – 12:00 PM",
    );
    fireEvent.change(form.getByLabelText("Date"), { target: { value: "2030-07-13" } });
    await userEvent.selectOptions(form.getByLabelText("From"), "20:00");
    // 8:00 PM to the earlier default 8:00 PM end: flagged, and Add waits for a later end.
    expect(form.getByText("End time must be after start time")).toBeInTheDocument();
    expect(form.getByRole("button", { name: "Add extra hours" })).toBeDisabled();
    await userEvent.selectOptions(form.getByLabelText("Until"), "21:30");
    await userEvent.click(form.getByRole("button", { name: "Add extra hours" }));
    expect(await screen.findByRole("status")).toHaveTextContent("Extra hours added: Sat, Jul 13, 2030, 8:00 PM – 9:30 PM.");
    expect(calls.find((c) => c.method === "POST")?.body).toEqual({ date: "2030-07-13", start_local: "20:00", end_local: "21:30" });
    await userEvent.click(screen.getByRole("button", { name: "Remove extra hours Sat, Jul 6, 2030, 10:00 AM – 12:00 PM" }));
    expect(await screen.findByText("Extra hours removed: Sat, Jul 6, 2030, 10:00 AM – 12:00 PM.")).toBeInTheDocument();
    expect(calls.filter((c) => c.method === "DELETE").map((c) => c.path)).toEqual(["/experts/ux1/date-overrides/o1"]);
  });

  it("shows the catalogue's words when the hours overlap others", async () => {
    fakeApi({
      "GET /experts/ux1/time-off/affected-bookings": { status: 200, body: [] },
      "POST /experts/ux1/date-overrides": { status: 409, body: { code: "date_override_overlap", message: "x" } },
    });
    renderScreen(<ExpertTime expertId="ux1" schedule={schedule()} />, { auth });
    await userEvent.click(screen.getByRole("button", { name: "Add extra hours" }));
    expect(await screen.findByRole("alert")).toHaveTextContent("These extra hours overlap extra hours you already added on that date.");
  });
});

describe("buffers and notice", () => {
  it("start from the saved rules, offer 0, 10, 15 or 30 minutes, and save with the notice in hours", async () => {
    const calls = fakeApi({
      "GET /experts/ux1/time-off/affected-bookings": { status: 200, body: [] },
      "PUT /experts/ux1/booking-rules": (body) => ({ status: 200, body }),
    });
    renderScreen(
      <ExpertTime
        expertId="ux1"
        schedule={schedule({ booking_rules: { buffer_before_minutes: 10, buffer_after_minutes: 0, min_notice_hours: 12 } })}
      />,
      { auth },
    );
    const form = within(screen.getByRole("form", { name: "Buffers and notice" }));
    const before = form.getByLabelText("Buffer before each session") as HTMLSelectElement;
    expect(before).toHaveValue("10");
    expect([...before.options].map((o) => o.textContent)).toEqual(["No buffer", "10 minutes", "15 minutes", "30 minutes"]);
    expect(form.getByLabelText("Minimum notice (hours)")).toHaveValue(12);
    await userEvent.selectOptions(form.getByLabelText("Buffer after each session"), "15");
    await userEvent.clear(form.getByLabelText("Minimum notice (hours)"));
    await userEvent.type(form.getByLabelText("Minimum notice (hours)"), "200");
    await userEvent.click(form.getByRole("button", { name: "Save buffers and notice" }));
    expect(form.getByText("A whole number of hours from 0 to 168 (a week).")).toBeInTheDocument();
    expect(calls.filter((c) => c.method === "PUT")).toHaveLength(0);
    await userEvent.clear(form.getByLabelText("Minimum notice (hours)"));
    await userEvent.type(form.getByLabelText("Minimum notice (hours)"), "24");
    await userEvent.click(form.getByRole("button", { name: "Save buffers and notice" }));
    expect(await screen.findByRole("status")).toHaveTextContent("Buffers and notice saved.");
    expect(calls.find((c) => c.method === "PUT")?.body).toEqual({
      buffer_before_minutes: 10,
      buffer_after_minutes: 15,
      min_notice_hours: 24,
    });
  });

  it("show the catalogue's words when the API refuses", async () => {
    fakeApi({
      "GET /experts/ux1/time-off/affected-bookings": { status: 200, body: [] },
      "PUT /experts/ux1/booking-rules": { status: 400, body: { code: "booking_notice_invalid", message: "x" } },
    });
    renderScreen(<ExpertTime expertId="ux1" schedule={schedule()} />, { auth });
    await userEvent.click(screen.getByRole("button", { name: "Save buffers and notice" }));
    expect(await screen.findByRole("alert")).toHaveTextContent("The minimum notice is a whole number of hours from 0 to 168.");
  });
});
