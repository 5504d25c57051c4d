import axe from "axe-core";
import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it, vi } from "vitest";
import { fakeApi, renderScreen, signedInAs, writes } from "../../test/screen-harness.tsx";
import type { BookingInExternalBusy, CalendarConnection, CalendarConnections } from "../shared/api-types.ts";
import { ScheduleTab } from "../expert-dashboard/schedule-tab.tsx";
import { busyCountText, lastSyncedText } from "./calendar-queries.ts";
import { CalendarsSection } from "./calendars-section.tsx";

// Issue 32.5 on the expert's Schedule tab: connecting an iCal address or a CalDAV account, which calendars
// block bookings, the CalDAV calendar that receives confirmed bookings, Sync now, Disconnect (asked first),
// the last read's failure, and the bookings made before a busy time appeared over them.

const auth = signedInAs("expert", { id: "ux1", expert_id: "ux1" });
const ZONE = "Europe/London";
const LIST = "GET /experts/ux1/calendars";

const icsConnection = (change: Partial<CalendarConnection> = {}): CalendarConnection => ({
  id: "k1",
  kind: "ics",
  label: "calendar.google.com",
  all_day_blocks: false,
  created_at: "2030-06-01T08:00:00.000Z",
  last_synced_at: null,
  last_error: null,
  next_sync_at: null,
  calendars: [{ id: "c1", name: "calendar.google.com", blocks: true, receives_bookings: false, busy_count: 12 }],
  ...change,
});
const calDavConnection = (change: Partial<CalendarConnection> = {}): CalendarConnection => ({
  id: "k2",
  kind: "caldav",
  label: "maya@dav.example.com",
  all_day_blocks: false,
  created_at: "2030-06-01T08:00:00.000Z",
  last_synced_at: new Date(Date.now() - 5 * 60_000).toISOString(),
  last_error: null,
  next_sync_at: null,
  calendars: [
    { id: "work", name: "Work", blocks: true, receives_bookings: false, busy_count: 3 },
    { id: "home", name: "Home", blocks: true, receives_bookings: false, busy_count: 1 },
    { id: "gym", name: "Gym", blocks: false, receives_bookings: false, busy_count: 0 },
  ],
  ...change,
});
const inBusy: BookingInExternalBusy = {
  booking_id: "b7",
  status: "confirmed",
  scheduled_time: "2030-07-02T09:00:00.000Z",
  length_minutes: 60,
  session_title: "Deck review",
  creator_id: "c1",
  calendar_ids: ["work"],
};
const listOf = (connections: CalendarConnection[], affected: BookingInExternalBusy[] = []): CalendarConnections => ({
  connections,
  affected_bookings: affected,
});

const connectForm = () => within(screen.getByRole("form", { name: "Connect a calendar" }));
const connectionItem = (id: string) => {
  const item = screen.getAllByTestId("calendar-connection").find((el) => el.dataset.connectionId === id);
  if (!item) throw new Error(`no connection ${id} shown`);
  return within(item);
};
const render = () => renderScreen(<CalendarsSection expertId="ux1" zone={ZONE} />, { auth });

describe("connecting a calendar", () => {
  it("connects a secret iCal address: the body, a progress while it is read, the success, and the new connection listed", async () => {
    let connected: CalendarConnection[] = [];
    const calls = fakeApi({
      [LIST]: () => ({ status: 200, body: listOf(connected) }),
      "POST /experts/ux1/calendars": () => {
        connected = [icsConnection()];
        return { status: 201, body: icsConnection() };
      },
    });
    render();
    expect(await screen.findByText("No calendars connected yet.")).toBeInTheDocument();
    expect(screen.getByTestId("calendars-section")).toHaveTextContent(
      "Connect your own calendars: their busy times block bookings, and confirmed bookings can be added to one of them. " +
        "Event titles are never stored.",
    );
    expect(screen.getByTestId("calendar-connect-kind-ics")).toBeChecked();
    expect(connectForm().getByLabelText("All-day events block bookings")).not.toBeChecked();
    expect(connectForm().getByText(/Integrate calendar → Secret address in iCal format/)).toBeInTheDocument();
    // Nothing typed: asked for, not sent.
    await userEvent.click(screen.getByTestId("calendar-connect"));
    expect(connectForm().getByText("Please enter your calendar's secret address.")).toBeInTheDocument();
    expect(writes(calls)).toHaveLength(0);

    const address = "https://calendar.google.com/calendar/ical/maya%40example.com/private-5ecret/basic.ics";
    await userEvent.type(connectForm().getByLabelText("Secret address in iCal format"), ` ${address} `);
    await userEvent.click(screen.getByTestId("calendar-connect"));
    expect(await screen.findByRole("status")).toHaveTextContent("Calendar connected.");
    expect(writes(calls)).toEqual([
      { method: "POST", path: "/experts/ux1/calendars", body: { kind: "ics", url: address, all_day_blocks: false } },
    ]);
    expect(screen.getByTestId("calendar-ics-url")).toHaveValue("");
    const item = connectionItem("k1");
    expect(item.getByTestId("calendar-connection-title")).toHaveTextContent("iCal address · calendar.google.com");
    expect(item.getByText("Not synced yet")).toBeInTheDocument();
    expect(item.getByText("12 busy times in the next 4 weeks")).toBeInTheDocument();
    expect(screen.queryByText(address)).not.toBeInTheDocument();
    // The list was read again after the connect.
    await waitFor(() => expect(calls.filter((c) => c.method === "GET" && c.path === "/experts/ux1/calendars")).toHaveLength(2));
  });

  it("disables Connect and says the calendar is being read until the server answers", async () => {
    let release: (value: { status: number; body: unknown }) => void = () => {};
    fakeApi({ [LIST]: { status: 200, body: listOf([]) } });
    const replied = new Promise<{ status: number; body: unknown }>((resolve) => (release = resolve));
    const listOnly = globalThis.fetch;
    // The connect answers only when the test says so.
    vi.stubGlobal("fetch", async (input: RequestInfo | URL, init?: RequestInit) => {
      if (init?.method !== "POST") return listOnly(input, init);
      const r = await replied;
      return new Response(JSON.stringify(r.body), { status: r.status, headers: { "content-type": "application/json" } });
    });
    render();
    await userEvent.type(connectForm().getByLabelText("Secret address in iCal format"), "https://example.com/cal.ics");
    await userEvent.click(screen.getByTestId("calendar-connect"));
    expect(await screen.findByText("Reading your calendar… this can take a few seconds.")).toBeInTheDocument();
    expect(screen.getByTestId("calendar-connect")).toBeDisabled();
    release({ status: 201, body: icsConnection() });
    expect(await screen.findByText("Calendar connected.")).toBeInTheDocument();
    expect(screen.getByTestId("calendar-connect")).toBeEnabled();
    expect(screen.queryByText("Reading your calendar… this can take a few seconds.")).not.toBeInTheDocument();
  });

  it("shows a refusal in the catalogue's words and keeps the typed address", async () => {
    fakeApi({
      [LIST]: { status: 200, body: listOf([]) },
      "POST /experts/ux1/calendars": { status: 422, body: { code: "calendar_address_refused", message: "x" } },
    });
    render();
    await userEvent.type(connectForm().getByLabelText("Secret address in iCal format"), "https://10.0.0.7/cal.ics");
    await userEvent.click(screen.getByTestId("calendar-connect"));
    expect(await screen.findByRole("alert")).toHaveTextContent(
      "That address leads into a private network, not to a public calendar. Please use the calendar's public https:// address.",
    );
    expect(screen.getByTestId("calendar-ics-url")).toHaveValue("https://10.0.0.7/cal.ics");
    expect(screen.queryByText("Calendar connected.")).not.toBeInTheDocument();
  });

  it("connects a CalDAV account with the server, user name and app password, then clears the password", async () => {
    let connected: CalendarConnection[] = [];
    const calls = fakeApi({
      [LIST]: () => ({ status: 200, body: listOf(connected) }),
      "POST /experts/ux1/calendars": () => {
        connected = [calDavConnection({ all_day_blocks: true })];
        return { status: 201, body: connected[0] };
      },
    });
    render();
    await userEvent.click(screen.getByTestId("calendar-connect-kind-caldav"));
    expect(screen.queryByTestId("calendar-ics-url")).not.toBeInTheDocument();
    expect(connectForm().getByLabelText("App password")).toHaveAttribute("type", "password");
    await userEvent.type(connectForm().getByLabelText("Server address"), "https://dav.example.com/");
    await userEvent.type(connectForm().getByLabelText("User name"), "maya");
    await userEvent.type(connectForm().getByLabelText("App password"), "abcd-efgh-ijkl");
    await userEvent.click(connectForm().getByLabelText("All-day events block bookings"));
    await userEvent.click(screen.getByTestId("calendar-connect"));
    expect(await screen.findByRole("status")).toHaveTextContent("Calendar connected.");
    expect(writes(calls)[0]!.body).toEqual({
      kind: "caldav",
      server_url: "https://dav.example.com/",
      username: "maya",
      password: "abcd-efgh-ijkl",
      all_day_blocks: true,
    });
    expect(screen.getByTestId("calendar-caldav-password")).toHaveValue("");
    expect(screen.getByTestId("calendar-caldav-username")).toHaveValue("");
    expect(screen.getByTestId("calendar-caldav-server")).toHaveValue("");
    expect(connectForm().getByLabelText("All-day events block bookings")).not.toBeChecked();
    expect(connectionItem("k2").getByTestId("calendar-connection-title")).toHaveTextContent("CalDAV · maya@dav.example.com");
    expect(connectionItem("k2").getByText("Last synced 5 minutes ago")).toBeInTheDocument();
  });
});

describe("a connected calendar", () => {
  it("toggling Blocks bookings sends the connection's full list of blocking calendars", async () => {
    let current = calDavConnection();
    const calls = fakeApi({
      [LIST]: () => ({ status: 200, body: listOf([current]) }),
      "PATCH /experts/ux1/calendars/k2": (body) => {
        const ids = (body as { blocking_calendar_ids: string[] }).blocking_calendar_ids;
        current = { ...current, calendars: current.calendars.map((k) => ({ ...k, blocks: ids.includes(k.id) })) };
        return { status: 200, body: current };
      },
    });
    render();
    expect(await screen.findByTestId("calendar-blocks-work")).toBeChecked();
    expect(screen.getByTestId("calendar-blocks-gym")).not.toBeChecked();
    expect(screen.getByTestId("calendar-blocks-gym")).toHaveAccessibleName("Blocks bookings");
    expect(screen.getByTestId("calendar-blocks-gym")).toHaveAccessibleDescription("Gym");
    await userEvent.click(screen.getByTestId("calendar-blocks-home"));
    await waitFor(() => expect(screen.getByTestId("calendar-blocks-home")).not.toBeChecked());
    await userEvent.click(screen.getByTestId("calendar-blocks-gym"));
    await waitFor(() => expect(screen.getByTestId("calendar-blocks-gym")).toBeChecked());
    expect(writes(calls).map((c) => c.body)).toEqual([{ blocking_calendar_ids: ["work"] }, { blocking_calendar_ids: ["work", "gym"] }]);
  });

  it("choosing the calendar that receives confirmed bookings sends its id, and None sends null; iCal has no such choice", async () => {
    let current = calDavConnection();
    const calls = fakeApi({
      [LIST]: () => ({ status: 200, body: listOf([icsConnection(), current]) }),
      "PATCH /experts/ux1/calendars/k2": (body) => {
        const target = (body as { bookings_calendar_id: string | null }).bookings_calendar_id;
        current = { ...current, calendars: current.calendars.map((k) => ({ ...k, receives_bookings: k.id === target })) };
        return { status: 200, body: current };
      },
    });
    render();
    await screen.findAllByTestId("calendar-connection");
    expect(connectionItem("k1").queryByTestId("calendar-bookings-target")).not.toBeInTheDocument();
    const target = within(connectionItem("k2").getByTestId("calendar-bookings-target"));
    expect(connectionItem("k2").getByRole("radiogroup", { name: "Add confirmed bookings to" })).toBeInTheDocument();
    expect(target.getAllByRole("radio").map((r) => r.closest("label")?.textContent)).toEqual(["Work", "Home", "Gym", "None"]);
    expect(target.getByLabelText("None")).toBeChecked();
    await userEvent.click(target.getByLabelText("Home"));
    expect(await screen.findByText("Confirmed bookings will be added there.")).toBeInTheDocument();
    await waitFor(() => expect(target.getByLabelText("Home")).toBeChecked());
    await userEvent.click(target.getByLabelText("None"));
    expect(await screen.findByText("Confirmed bookings are no longer added to a calendar.")).toBeInTheDocument();
    expect(writes(calls).map((c) => [c.path, c.body])).toEqual([
      ["/experts/ux1/calendars/k2", { bookings_calendar_id: "home" }],
      ["/experts/ux1/calendars/k2", { bookings_calendar_id: null }],
    ]);
  });

  it("Disconnect asks first; keeping it sends nothing, confirming deletes it", async () => {
    let connected = [icsConnection(), calDavConnection()];
    const calls = fakeApi({
      [LIST]: () => ({ status: 200, body: listOf(connected) }),
      "DELETE /experts/ux1/calendars/k1": () => {
        connected = connected.filter((c) => c.id !== "k1");
        return { status: 204 };
      },
    });
    render();
    await screen.findAllByTestId("calendar-connection");
    await userEvent.click(connectionItem("k1").getByTestId("calendar-disconnect"));
    const dialog = within(await screen.findByRole("dialog", { name: "Disconnect this calendar?" }));
    expect(dialog.getByText("Its busy times stop blocking bookings and its address and password are deleted.")).toBeInTheDocument();
    await userEvent.click(dialog.getByRole("button", { name: "Keep it connected" }));
    await waitFor(() => expect(screen.queryByRole("dialog")).not.toBeInTheDocument());
    expect(writes(calls)).toHaveLength(0);
    await userEvent.click(connectionItem("k1").getByTestId("calendar-disconnect"));
    await userEvent.click(within(await screen.findByRole("dialog")).getByRole("button", { name: "Disconnect" }));
    expect(await screen.findByText("Calendar disconnected.")).toBeInTheDocument();
    expect(writes(calls)).toEqual([{ method: "DELETE", path: "/experts/ux1/calendars/k1", body: undefined }]);
    await waitFor(() => expect(screen.getAllByTestId("calendar-connection").map((el) => el.dataset.connectionId)).toEqual(["k2"]));
  });

  it("shows the last read's failure, and Sync now reads again and shows the outcome", async () => {
    let current = calDavConnection({ last_error: "The CalDAV server did not accept that user name and app password." });
    const calls = fakeApi({
      [LIST]: () => ({ status: 200, body: listOf([icsConnection(), current]) }),
      "POST /experts/ux1/calendars/k2/sync": () => {
        current = calDavConnection({ last_synced_at: new Date().toISOString() });
        return { status: 200, body: current };
      },
    });
    render();
    await screen.findAllByTestId("calendar-connection");
    expect(connectionItem("k1").queryByTestId("calendar-last-error")).not.toBeInTheDocument();
    expect(connectionItem("k2").getByTestId("calendar-last-error")).toHaveTextContent(
      "The CalDAV server did not accept that user name and app password.",
    );
    await userEvent.click(connectionItem("k2").getByTestId("calendar-sync"));
    expect(await connectionItem("k2").findByText("Calendar synced.")).toBeInTheDocument();
    expect(connectionItem("k2").queryByTestId("calendar-last-error")).not.toBeInTheDocument();
    expect(connectionItem("k2").getByText("Last synced just now")).toBeInTheDocument();
    expect(writes(calls).map((c) => `${c.method} ${c.path}`)).toEqual(["POST /experts/ux1/calendars/k2/sync"]);
  });

  it("lists the bookings made before a busy time appeared, in the expert's zone, each with a link to manage it", async () => {
    fakeApi({ [LIST]: { status: 200, body: listOf([calDavConnection()], [inBusy]) } });
    render();
    const affected = await screen.findByTestId("calendar-affected-bookings");
    expect(affected).toHaveTextContent(
      "These bookings were made before the busy time appeared in your calendar. They stay booked: move or cancel them if you cannot make it.",
    );
    expect(within(affected).getByRole("listitem")).toHaveTextContent(
      "Deck review · Tuesday, July 2, 2030, 10:00 AM (Europe/London, GMT+1) · busy in Work · Manage this booking",
    );
    expect(within(affected).getByRole("link", { name: "Manage this booking" })).toHaveAttribute("href", "/manage-booking/b7");
  });

  it("shows no such list when no booking is in a busy time", async () => {
    fakeApi({ [LIST]: { status: 200, body: listOf([calDavConnection()]) } });
    render();
    await screen.findAllByTestId("calendar-connection");
    expect(screen.queryByTestId("calendar-affected-bookings")).not.toBeInTheDocument();
  });
});

describe("on the Schedule tab", () => {
  it("comes after time off, extra hours, buffers and notice", async () => {
    fakeApi({
      "GET /experts/ux1/schedule": {
        status: 200,
        body: {
          timezone: ZONE,
          slots: [],
          booked: [],
          time_off: [],
          date_overrides: [],
          booking_rules: { buffer_before_minutes: 0, buffer_after_minutes: 0, min_notice_hours: 0 },
        },
      },
      "GET /experts/ux1/time-off/affected-bookings": { status: 200, body: [] },
      [LIST]: { status: 200, body: listOf([], [inBusy]) },
    });
    renderScreen(<ScheduleTab expertId="ux1" />, { auth });
    const headings = (await screen.findAllByRole("heading", { level: 2 })).map((h) => h.textContent);
    expect(headings.slice(-2)).toEqual(["Buffers and notice", "Calendars"]);
    expect(await screen.findByTestId("calendar-affected-bookings")).toHaveTextContent(
      "Tuesday, July 2, 2030, 10:00 AM (Europe/London, GMT+1)",
    );
  });

  it("has labels on every control: no serious or critical axe violations, with both kinds listed and the CalDAV form open", async () => {
    fakeApi({ [LIST]: { status: 200, body: listOf([icsConnection({ last_error: "x" }), calDavConnection()], [inBusy]) } });
    const { container } = render();
    await screen.findByTestId("calendar-affected-bookings");
    await userEvent.click(screen.getByTestId("calendar-connect-kind-caldav"));
    // jsdom draws nothing, so contrast is left to the end-to-end walk.
    const result = await axe.run(container, { rules: { "color-contrast": { enabled: false } }, resultTypes: ["violations"] });
    const serious = result.violations.filter((v) => v.impact === "serious" || v.impact === "critical");
    expect(serious.map((v) => `${v.id}: ${v.nodes.map((n) => n.html).join(" | ")}`)).toEqual([]);
  });

  it("rules: busy counts and when a calendar was last read", () => {
    expect([busyCountText(0), busyCountText(1), busyCountText(1234)]).toEqual([
      "No busy times in the next 4 weeks",
      "1 busy time in the next 4 weeks",
      "1,234 busy times in the next 4 weeks",
    ]);
    const now = Date.parse("2030-07-02T12:00:00.000Z");
    expect(lastSyncedText(null, ZONE, now)).toBe("Not synced yet");
    expect(lastSyncedText("2030-07-02T11:59:30.000Z", ZONE, now)).toBe("Last synced just now");
    expect(lastSyncedText("2030-07-02T11:59:00.000Z", ZONE, now)).toBe("Last synced 1 minute ago");
    expect(lastSyncedText("2030-07-02T09:10:00.000Z", ZONE, now)).toBe("Last synced 2 hours ago");
    expect(lastSyncedText("2030-06-30T09:00:00.000Z", ZONE, now)).toBe(
      "Last synced Sunday, June 30, 2030, 10:00 AM (Europe/London, GMT+1)",
    );
  });
});
