import { act, screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it, vi } from "vitest";
import { fakeApi, renderScreen, signedInAs } from "../../test/screen-harness.tsx";
import { ScheduleEditor } from "./schedule-tab.tsx";
import { timezoneOptions } from "../shared/timezone-field.tsx";
import { endOptions, slotErrors, TIME_OPTIONS } from "./schedule-form.ts";

const auth = signedInAs("expert");
const schedule = { timezone: "Europe/London", slots: [], booked: [] };
const slot = (n: number) => within(screen.getByRole("group", { name: `Slot ${n}` }));

describe("schedule tab", () => {
  it("starts with Monday 9:00 AM to 5:00 PM, offers only later end times, and blocks Save all while a slot is invalid", async () => {
    renderScreen(<ScheduleEditor expertId="expert-1" schedule={schedule} />, { auth });
    expect(slot(1).getByLabelText("Day")).toHaveValue("monday");
    expect(slot(1).getByLabelText("Start")).toHaveValue("09:00");
    expect(slot(1).getByLabelText("End")).toHaveValue("17:00");
    expect(slot(1).queryByRole("button", { name: /Remove/ })).not.toBeInTheDocument();
    const ends = [...(slot(1).getByLabelText("End") as HTMLSelectElement).options].map((o) => o.value);
    expect(ends[0]).toBe("09:30");
    expect(ends).toHaveLength(29);
    await userEvent.selectOptions(slot(1).getByLabelText("Start"), "18:00");
    expect(screen.getByText("End time must be after start time")).toBeInTheDocument();
    expect(screen.getByRole("button", { name: "Save all" })).toBeDisabled();
    await userEvent.selectOptions(slot(1).getByLabelText("End"), "19:00");
    expect(screen.queryByText("End time must be after start time")).not.toBeInTheDocument();
    expect(screen.getByRole("button", { name: "Save all" })).toBeEnabled();
    await userEvent.click(screen.getByRole("button", { name: "Add New Slot" }));
    expect(slot(2).getByLabelText("Start")).toHaveValue("09:00");
    expect(screen.getAllByRole("button", { name: /Remove slot/ })).toHaveLength(2);
  });

  it("shows the server's overlap message, and a success that goes away after 5 seconds", async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    let reply = { status: 400, body: { code: "schedule_slots_overlap", message: "You can not add overlapping slots" } };
    const calls = fakeApi({ "POST /experts/expert-1/schedule": () => reply });
    renderScreen(<ScheduleEditor expertId="expert-1" schedule={schedule} />, { auth });
    const user = userEvent.setup({ advanceTimers: vi.advanceTimersByTime });
    await user.click(screen.getByRole("button", { name: "Save all" }));
    expect(await screen.findByText("You can not add overlapping slots")).toBeInTheDocument();
    expect(calls[0]!.body).toEqual({ timezone: "Europe/London", slots: [{ weekday: "monday", start_local: "09:00", end_local: "17:00" }] });
    reply = { status: 200, body: {} as never };
    await user.click(screen.getByRole("button", { name: "Save all" }));
    expect(await screen.findByText("Schedule saved successfully!")).toBeInTheDocument();
    await act(async () => {
      vi.advanceTimersByTime(5100);
    });
    expect(screen.queryByText("Schedule saved successfully!")).not.toBeInTheDocument();
  });

  it("names the overlapping slots and blocks Save all until they no longer overlap", async () => {
    renderScreen(
      <ScheduleEditor
        expertId="expert-1"
        schedule={{
          ...schedule,
          slots: [
            { weekday: "monday", start_local: "09:00", end_local: "12:00" },
            { weekday: "monday", start_local: "11:00", end_local: "13:00" },
          ],
        }}
      />,
      { auth },
    );
    expect(slot(1).getByRole("alert")).toHaveTextContent("Monday 09:00–12:00 overlaps Monday 11:00–13:00");
    expect(slot(2).getByRole("alert")).toHaveTextContent("Monday 11:00–13:00 overlaps Monday 09:00–12:00");
    expect(screen.getByRole("button", { name: "Save all" })).toBeDisabled();
    await userEvent.selectOptions(slot(2).getByLabelText("Day"), "tuesday");
    expect(screen.queryByRole("alert")).not.toBeInTheDocument();
    expect(screen.getByRole("button", { name: "Save all" })).toBeEnabled();
  });

  it("sets Monday to Friday to one row's hours in one click, keeping the weekend and hours that do not clash", async () => {
    const slots = [
      { weekday: "monday" as const, start_local: "09:00", end_local: "17:00" },
      { weekday: "wednesday" as const, start_local: "10:00", end_local: "12:00" },
      { weekday: "thursday" as const, start_local: "18:00", end_local: "20:00" },
      { weekday: "saturday" as const, start_local: "10:00", end_local: "14:00" },
    ];
    const calls = fakeApi({ "POST /experts/expert-1/schedule": () => ({ status: 200, body: {} as never }) });
    renderScreen(<ScheduleEditor expertId="expert-1" schedule={{ ...schedule, slots }} />, { auth });
    await userEvent.click(slot(1).getByRole("button", { name: "Copy to weekdays" }));
    const rows = screen.getAllByTestId("schedule-slot").map((row) => within(row).getByLabelText("Day"));
    expect(rows.map((day) => (day as HTMLSelectElement).value)).toEqual([
      "monday",
      "tuesday",
      "wednesday",
      "thursday",
      "thursday",
      "friday",
      "saturday",
    ]);
    await userEvent.click(screen.getByRole("button", { name: "Save all" }));
    expect(calls[0]!.body).toEqual({
      timezone: "Europe/London",
      slots: [
        { weekday: "monday", start_local: "09:00", end_local: "17:00" },
        { weekday: "tuesday", start_local: "09:00", end_local: "17:00" },
        { weekday: "wednesday", start_local: "09:00", end_local: "17:00" },
        { weekday: "thursday", start_local: "09:00", end_local: "17:00" },
        { weekday: "thursday", start_local: "18:00", end_local: "20:00" },
        { weekday: "friday", start_local: "09:00", end_local: "17:00" },
        { weekday: "saturday", start_local: "10:00", end_local: "14:00" },
      ],
    });
  });

  it("rules: 48 half-hour options, zones with their offsets", () => {
    expect(TIME_OPTIONS).toHaveLength(48);
    expect(TIME_OPTIONS.at(-1)).toBe("23:30");
    expect(endOptions("23:00")).toEqual(["23:30"]);
    expect(slotErrors([{ weekday: "monday", start_local: "10:00", end_local: "10:00" }])).toEqual(["End time must be after start time"]);
    const zones = timezoneOptions();
    expect(zones.find((z) => z.zone === "Asia/Tokyo")?.label).toBe("(UTC+09:00) Asia/Tokyo");
    expect(zones.every((z) => /^\(UTC[+-]\d\d:\d\d\) /.test(z.label))).toBe(true);
    expect(zones.length).toBeGreaterThan(300);
  });
});
