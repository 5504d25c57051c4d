import { fireEvent, render, screen, waitFor, within } from "@testing-library/react";
import { describe, expect, it, vi } from "vitest";
import { App } from "../src/app.tsx";
import { centsFromText, deadlineText } from "../src/no-shows/no-show-record.ts";
import { resetConsoleAfterEach } from "./console-fakes.ts";
import { CONTESTED, OPEN, SETTLED } from "./no-show-fakes.ts";

// Issue 31.1: the console lists no-show reports, the contested ones (an admin's queue) first; on a report's page
// an admin decides it (upheld or not, a refund in the booking's currency sent in cents, a reason both people read),
// reads the API's refusal when there is one, and reads the outcome of a settled report instead of a form.

const SETTLED_ALREADY = "There is no open no-show report on this session.";
const api = vi.hoisted(() => ({ listed: vi.fn(), decided: vi.fn(), refuse: false }));

vi.mock("../src/data-provider.ts", async (original) => {
  const { HttpError } = await import("react-admin");
  const { fakeDataProvider, hostileRecord } = await import("./console-fakes.ts");
  const { noShowRows, settledReport } = await import("./no-show-fakes.ts");
  type Params = { filter: { state?: string | string[] }; sort: { field: string; order: "ASC" | "DESC" } };
  /** Like the API: the states asked for (one or many; none, every report), the soonest contest deadline first. */
  const list = ({ filter }: Params) => {
    const states = filter.state === undefined ? null : ([] as string[]).concat(filter.state);
    const rows = noShowRows.filter((r) => !states || states.length === 0 || states.includes(r.state));
    return rows.sort((a, b) => a.no_show.contest_by.localeCompare(b.no_show.contest_by));
  };
  return {
    ...(await original<object>()),
    dataProvider: {
      ...fakeDataProvider,
      getList: (resource: string, params: Params) => {
        if (resource !== "no-shows") return fakeDataProvider.getList(resource, params as never);
        api.listed(params);
        const data = list(params);
        return Promise.resolve({ data, total: data.length });
      },
      getOne: (resource: string, params: { id: string }) => {
        if (resource === "no-shows") return Promise.resolve({ data: noShowRows.find((r) => r.id === params.id) });
        // The booking of the settled report, as GET /admin/bookings/{id} sends it: the report on it.
        const data = { ...hostileRecord(resource, params.id), timeline: [] };
        return Promise.resolve({ data: resource === "bookings" && params.id === SETTLED ? { ...data, ...settledReport } : data });
      },
      decideNoShow: (bookingId: string, body: object) => {
        api.decided(bookingId, body);
        return api.refuse
          ? Promise.reject(new HttpError(SETTLED_ALREADY, 409, { code: "no_show_not_reported", message: SETTLED_ALREADY }))
          : Promise.resolve({ id: bookingId });
      },
    },
  };
});
vi.mock("../src/auth-provider.ts", async (original) => {
  const { signedInAdmin } = await import("./console-fakes.ts");
  return { ...(await original<object>()), authProvider: signedInAdmin };
});

resetConsoleAfterEach(() => {
  api.refuse = false;
  api.listed.mockClear();
  api.decided.mockClear();
});

/** The list's rows (the header left out), each row's text. */
const rowTexts = () =>
  screen
    .getAllByRole("row")
    .slice(1)
    .map((row) => row.textContent ?? "");

/** Close the state filter's menu (it stays open while choosing several). */
function closeMenu(): void {
  fireEvent.keyDown(screen.getByRole("listbox"), { key: "Escape" });
}

async function openReport(id: string, loaded: string): Promise<void> {
  window.location.hash = `#/no-shows/${id}/show`;
  render(<App />);
  await screen.findByText(loaded, {}, { timeout: 20_000 });
}

/** Fill the decision form and confirm it in its dialog. */
async function decide(upheld: RegExp, refund: string, reason: string): Promise<void> {
  fireEvent.click(screen.getByRole("radio", { name: upheld }));
  fireEvent.change(screen.getByRole("textbox", { name: /Refund to the creator \(USD\)/ }), { target: { value: refund } });
  fireEvent.change(screen.getByRole("textbox", { name: /Reason \(both people read it\)/ }), { target: { value: reason } });
  fireEvent.click(screen.getByRole("button", { name: "Decide" }));
  const dialog = await screen.findByRole("dialog");
  fireEvent.click(within(dialog).getByRole("button", { name: "Send decision" }));
  await waitFor(() => expect(screen.queryByRole("dialog")).toBeNull());
}

describe("the no-shows list", () => {
  it("opens on the contested reports, with who is reported absent, the deadline and a link to the booking", async () => {
    window.location.hash = "#/no-shows";
    render(<App />);
    await screen.findByText("Thumbnail teardown", {}, { timeout: 20_000 });
    expect(api.listed).toHaveBeenLastCalledWith(expect.objectContaining({ filter: { state: ["contested"] } }));
    const rows = rowTexts();
    expect(rows).toHaveLength(1);
    expect(rows[0]).toContain("Expert: ");
    expect(rows[0]).toMatch(/· contested/);
    expect(rows[0]).toContain("Contested");
    const link = screen.getByRole("link", { name: "Booking: Thumbnail teardown" });
    expect(link.getAttribute("href")).toBe(`#/bookings/${CONTESTED}/show`);
  }, 60_000);

  it("filters by state: the open reports too, with their time left or overdue, and every report once cleared", async () => {
    window.location.hash = "#/no-shows";
    render(<App />);
    await screen.findByText("Thumbnail teardown", {}, { timeout: 20_000 });
    fireEvent.mouseDown(screen.getByRole("combobox", { name: /State/ }));
    fireEvent.click(await screen.findByRole("option", { name: "Open to contest" }));
    await waitFor(() => expect(api.listed).toHaveBeenLastCalledWith(expect.objectContaining({ filter: { state: ["contested", "open"] } })));
    closeMenu();
    await screen.findByText("Channel audit", {}, { timeout: 10_000 });
    // The soonest deadline first: the overdue one, the contested one, the one with 30 hours left.
    const rows = rowTexts();
    expect(rows.map((r) => r.match(/^(Sponsorship pricing|Thumbnail teardown|Channel audit)/)?.[1])).toEqual([
      "Sponsorship pricing",
      "Thumbnail teardown",
      "Channel audit",
    ]);
    expect(rows[0]).toMatch(/· overdue/);
    expect(rows[2]).toMatch(/· in 30 hours/);
    expect(rows[2]).toContain("Creator: ");
    expect(screen.queryByText("Retention deep dive")).toBeNull();
    // Both deselected: no state asked for, every report listed.
    fireEvent.mouseDown(screen.getByRole("combobox", { name: /State/ }));
    fireEvent.click(await screen.findByRole("option", { name: "Contested (to decide)" }));
    fireEvent.click(screen.getByRole("option", { name: "Open to contest" }));
    closeMenu();
    await screen.findByText("Retention deep dive", {}, { timeout: 10_000 });
    expect(api.listed).toHaveBeenLastCalledWith(expect.objectContaining({ filter: {} }));
  }, 60_000);
});

describe("a no-show report's page", () => {
  it("shows the booking, the report and the contest, and sends the decision in cents for that booking", async () => {
    await openReport(CONTESTED, "Thumbnail teardown");
    const report = screen.getByTestId("no-show-report");
    expect(report.textContent).toMatch(/The creator reported the expert absent, /);
    expect(report.textContent).toContain("Waited 20 minutes in the room; nobody came.");
    expect(report.textContent).toMatch(/The expert contested the report, .*I was in the room; the creator used the wrong link\./);
    // Paid USD 50.00, USD 10.00 already owed back: at most USD 40.00.
    expect(screen.getByText(/Any amount up to USD\s40\.00: paid USD\s50\.00, already owed back USD\s10\.00\./)).toBeTruthy();
    const button = screen.getByRole("button", { name: "Decide" }) as HTMLButtonElement;
    expect(button.disabled).toBe(true);
    fireEvent.change(screen.getByRole("textbox", { name: /Refund to the creator/ }), { target: { value: "40.01" } });
    expect(screen.getByText(/At most USD\s40\.00 can be refunded\./)).toBeTruthy();
    await decide(/^Yes: the expert did not show/, "12.5", "  The room's log shows the expert never joined.  ");
    await waitFor(() => expect(api.decided).toHaveBeenCalledTimes(1));
    expect(api.decided).toHaveBeenCalledWith(CONTESTED, {
      upheld: true,
      refund_cents: 1250,
      reason: "The room's log shows the expert never joined.",
    });
    expect(await screen.findByText("The no-show report is decided; both people are told why.")).toBeTruthy();
  }, 60_000);

  it("sends a decision not upheld with nothing refunded", async () => {
    await openReport(CONTESTED, "Thumbnail teardown");
    fireEvent.click(screen.getByRole("button", { name: "Refund nothing" }));
    await decide(/^No: the session was held/, "0", "Both joined; the recording shows it.");
    await waitFor(() =>
      expect(api.decided).toHaveBeenCalledWith(CONTESTED, {
        upheld: false,
        refund_cents: 0,
        reason: "Both joined; the recording shows it.",
      }),
    );
  }, 60_000);

  it("shows the API's message when the decision is refused", async () => {
    await openReport(CONTESTED, "Thumbnail teardown");
    api.refuse = true;
    await decide(/^Yes: the expert did not show/, "40", "No show");
    const refused = await screen.findByTestId("no-show-refused");
    expect(refused.textContent).toContain(SETTLED_ALREADY);
    // Another admin decided first: the page offers to reload and show how.
    expect(within(refused).getByRole("button", { name: "Reload" })).toBeTruthy();
    expect(api.decided).toHaveBeenCalledWith(CONTESTED, { upheld: true, refund_cents: 4000, reason: "No show" });
    expect(screen.queryByText("The no-show report is decided; both people are told why.")).toBeNull();
  }, 60_000);

  it("an open report says when it stands without a contest", async () => {
    await openReport(OPEN, "Channel audit");
    expect(screen.getByTestId("no-show-report").textContent).toMatch(
      /Not contested; stands automatically at .* \(in 30 hours\): the expert keeps the payment\./,
    );
    expect(screen.getByTestId("no-show-decision")).toBeTruthy();
  }, 60_000);

  it("a settled report shows its outcome, refund, reason and who decided, and no form", async () => {
    await openReport(SETTLED, "Retention deep dive");
    const outcome = screen.getByTestId("no-show-outcome");
    expect(outcome.textContent).toContain("Upheld: the expert did not show");
    expect(outcome.textContent).toMatch(/EUR\s25\.00 to the creator/);
    expect(outcome.textContent).toContain("The room's log shows the expert never joined; half refunded as agreed.");
    await waitFor(() => expect(outcome.textContent).toContain("+a@evil.example")); // the deciding admin's account
    expect(screen.queryByTestId("no-show-decision")).toBeNull();
    expect(screen.queryByRole("button", { name: "Decide" })).toBeNull();
    expect(screen.queryByRole("radio")).toBeNull();
  }, 60_000);
});

describe("a booking's page with a no-show report", () => {
  it("shows the report in short with a link to it", async () => {
    window.location.hash = `#/bookings/${SETTLED}/show`;
    render(<App />);
    const brief = await screen.findByTestId("booking-no-show", {}, { timeout: 20_000 });
    expect(brief.textContent).toContain("the expert (reported by the creator)");
    expect(brief.textContent).toContain("Upheld: the expert did not show");
    expect(within(brief).getByRole("link", { name: "Open the no-show report" }).getAttribute("href")).toBe(`#/no-shows/${SETTLED}/show`);
  }, 60_000);
});

describe("the no-show rules the console applies", () => {
  it("reads an amount in the currency's units as whole cents, and nothing else", () => {
    expect(centsFromText("12.5", "USD")).toBe(1250);
    expect(centsFromText(" 12,05 ", "EUR")).toBe(1205);
    expect(centsFromText("40", "USD")).toBe(4000);
    expect(centsFromText("0", "USD")).toBe(0);
    expect(centsFromText("0.1", "USD")).toBe(10);
    for (const wrong of ["", "-1", "12.345", "1e3", "abc", "12.5.0"]) expect(centsFromText(wrong, "USD")).toBeNull();
  });

  it("words a deadline as the hours left, or overdue", () => {
    const now = Date.parse("2026-05-01T12:00:00.000Z");
    expect(deadlineText("2026-05-01T17:30:00.000Z", now)).toBe("in 5 hours");
    expect(deadlineText("2026-05-01T13:10:00.000Z", now)).toBe("in 1 hour");
    expect(deadlineText("2026-05-01T12:20:00.000Z", now)).toBe("in under an hour");
    expect(deadlineText("2026-05-01T12:00:00.000Z", now)).toBe("overdue");
    expect(deadlineText("2026-05-01T11:00:00.000Z", now)).toBe("overdue");
  });
});
