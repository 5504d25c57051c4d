import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import type { NoShowReply } from "@booking/contracts";
import { aBooking } from "../../test/booking-fixture.ts";
import { fakeApi, renderScreen, signedInAs, writes } from "../../test/screen-harness.tsx";
import type { Booking } from "../shared/api-types.ts";
import { localMoment } from "../shared/local-time.ts";
import { BookingNoShow } from "./booking-no-show.tsx";
import { mayReportNoShow } from "./no-show-window.ts";

// Issue 31.1 on a booking: the report button only while the calendar would take a report, what
// reporting leads to, the report as each party reads it, the contest, and how it was settled.

const HOUR = 3_600_000;
const MINUTE = 60_000;
const creator = signedInAs("creator");
const expert = signedInAs("expert");
const admin = signedInAs("admin");

/** Cora's 60-minute session with Maya, started `startedMsAgo` ago; the signed-in creator and expert are its parties. */
const started = (startedMsAgo: number, overrides: Partial<Booking> = {}) =>
  aBooking({
    scheduled_time: new Date(Date.now() - startedMsAgo).toISOString(),
    creator_id: "creator-1",
    expert_id: "expert-1",
    ...overrides,
  });

/** Cora's report that Maya did not join, made 30 minutes ago. */
const report = (overrides: Partial<NoShowReply> = {}): NoShowReply => ({
  absent: "expert",
  note: "Waited 20 minutes, nobody came.",
  reported_at: new Date(Date.now() - 30 * MINUTE).toISOString(),
  contest_by: new Date(Date.now() + 47 * HOUR).toISOString(),
  contested: false,
  contest_note: null,
  contested_at: null,
  outcome: null,
  refund_cents: null,
  reason: null,
  decided_by: null,
  settled_at: null,
  ...overrides,
});

const reportButton = () => screen.queryByRole("button", { name: "Report a no-show: Deck review" });

describe("the report button shows only while a report would be taken", () => {
  it.each([
    ["the creator, 10 minutes into the session", creator, started(10 * MINUTE)],
    ["the expert, 10 minutes into the session", expert, started(10 * MINUTE)],
    ["the creator of a completed session, 47 hours after its end", creator, started(48 * HOUR, { status: "completed" })],
  ])("shows for %s", (_what, auth, booking) => {
    renderScreen(<BookingNoShow booking={booking} />, { auth });
    expect(reportButton()).toBeInTheDocument();
  });

  it.each([
    ["before the session starts", creator, started(-10 * MINUTE)],
    ["more than 48 hours after the session's end", creator, started(49 * HOUR + 5 * MINUTE, { status: "completed" })],
    ["once a report was made", expert, started(30 * MINUTE, { no_show: report() })],
    ["on a cancelled booking", creator, started(30 * MINUTE, { status: "cancelled" })],
    ["on a request never confirmed", creator, started(30 * MINUTE, { status: "pending" })],
    ["to an admin looking on", admin, started(30 * MINUTE)],
  ])("is missing %s", (_what, auth, booking) => {
    renderScreen(<BookingNoShow booking={booking} />, { auth });
    expect(reportButton()).not.toBeInTheDocument();
  });

  it("the window's edges are the session's start and 48 hours after its end, both included", () => {
    const b = aBooking({ scheduled_time: "2030-03-05T10:00:00.000Z", length_minutes: 60 });
    const at = (iso: string) => Date.parse(iso);
    expect(mayReportNoShow(b, "creator", at("2030-03-05T09:59:59.999Z"))).toBe(false);
    expect(mayReportNoShow(b, "creator", at("2030-03-05T10:00:00.000Z"))).toBe(true);
    expect(mayReportNoShow(b, "expert", at("2030-03-07T11:00:00.000Z"))).toBe(true);
    expect(mayReportNoShow(b, "expert", at("2030-03-07T11:00:00.001Z"))).toBe(false);
    expect(mayReportNoShow(b, null, at("2030-03-05T10:30:00.000Z"))).toBe(false);
  });
});

describe("reporting a no-show", () => {
  it("the creator is told they are refunded in full unless the expert contests, and sends the note", async () => {
    const booking = started(20 * MINUTE);
    const calls = fakeApi({ "POST /bookings/b1/no-show": { status: 200, body: { ...booking, no_show: report() } } });
    renderScreen(<BookingNoShow booking={booking} />, { auth: creator });
    await userEvent.click(reportButton()!);
    const dialog = screen.getByRole("dialog", { name: "Report that Maya Lind did not join" });
    expect(within(dialog).getByTestId("no-show-consequence")).toHaveTextContent(
      "If Maya Lind does not contest within 48 hours, you are refunded in full.",
    );
    await userEvent.type(within(dialog).getByLabelText(/What happened\?/), "  Waited 20 minutes, nobody came.  ");
    await userEvent.click(within(dialog).getByRole("button", { name: "Report no-show" }));
    await waitFor(() => expect(screen.queryByRole("dialog")).not.toBeInTheDocument());
    expect(writes(calls)).toEqual([{ method: "POST", path: "/bookings/b1/no-show", body: { note: "Waited 20 minutes, nobody came." } }]);
  });

  it("the expert is told they keep the payment unless the creator contests; no note sends none", async () => {
    const booking = started(20 * MINUTE);
    const calls = fakeApi({ "POST /bookings/b1/no-show": { status: 200, body: { ...booking, no_show: report({ absent: "creator" }) } } });
    renderScreen(<BookingNoShow booking={booking} />, { auth: expert });
    await userEvent.click(reportButton()!);
    const dialog = screen.getByRole("dialog", { name: "Report that Cora Creator did not join" });
    expect(within(dialog).getByTestId("no-show-consequence")).toHaveTextContent(
      "If Cora Creator does not contest within 48 hours, you keep the payment.",
    );
    await userEvent.click(within(dialog).getByRole("button", { name: "Report no-show" }));
    await waitFor(() => expect(writes(calls)).toHaveLength(1));
    expect(writes(calls)[0]).toEqual({ method: "POST", path: "/bookings/b1/no-show", body: {} });
  });

  it("a refusal is shown in the API's words and the dialog stays open", async () => {
    const message = "A no-show has already been reported for this session.";
    fakeApi({ "POST /bookings/b1/no-show": { status: 409, body: { code: "no_show_already_reported", message } } });
    renderScreen(<BookingNoShow booking={started(20 * MINUTE)} />, { auth: creator });
    await userEvent.click(reportButton()!);
    const dialog = screen.getByRole("dialog", { name: "Report that Maya Lind did not join" });
    await userEvent.click(within(dialog).getByRole("button", { name: "Report no-show" }));
    expect(await within(dialog).findByRole("alert")).toHaveTextContent(message);
    expect(screen.getByRole("dialog")).toBeInTheDocument();
  });
});

describe("the report as each party reads it", () => {
  const contestButton = () => screen.queryByRole("button", { name: "Contest" });

  it("the reporter sees whom they reported, their note and the deadline to contest, and no Contest button", () => {
    const r = report();
    renderScreen(<BookingNoShow booking={started(HOUR, { no_show: r })} />, { auth: creator });
    const panel = screen.getByRole("region", { name: "No-show report" });
    expect(panel).toHaveTextContent("You reported that Maya Lind did not join.");
    expect(within(panel).getByTestId("no-show-note")).toHaveTextContent("Note: “Waited 20 minutes, nobody came.”");
    expect(within(panel).getByTestId("no-show-deadline")).toHaveTextContent(
      `Maya Lind can contest until ${localMoment(r.contest_by)}. If Maya Lind does not contest by then, you will be refunded in full.`,
    );
    expect(contestButton()).not.toBeInTheDocument();
  });

  it("the expert reported absent may contest before the deadline, with a note", async () => {
    const booking = started(HOUR, { no_show: report() });
    const calls = fakeApi({
      "POST /bookings/b1/no-show/contest": { status: 200, body: { ...booking, no_show: report({ contested: true }) } },
    });
    renderScreen(<BookingNoShow booking={booking} />, { auth: expert });
    const panel = screen.getByRole("region", { name: "No-show report" });
    expect(panel).toHaveTextContent("Cora Creator reported that you did not join.");
    expect(within(panel).getByTestId("no-show-deadline")).toHaveTextContent(
      "You can contest until " +
        localMoment(booking.no_show!.contest_by) +
        ". If you do not contest by then, Cora Creator will be refunded in full.",
    );
    await userEvent.click(contestButton()!);
    const dialog = screen.getByRole("dialog", { name: "Contest this report?" });
    await userEvent.type(within(dialog).getByLabelText(/What happened\?/), "I was in the room, the creator never joined.");
    await userEvent.click(within(dialog).getByRole("button", { name: "Contest report" }));
    await waitFor(() => expect(writes(calls)).toHaveLength(1));
    expect(writes(calls)[0]).toEqual({
      method: "POST",
      path: "/bookings/b1/no-show/contest",
      body: { note: "I was in the room, the creator never joined." },
    });
  });

  it("no Contest button once the 48 hours to contest have passed", () => {
    const r = report({ contest_by: new Date(Date.now() - MINUTE).toISOString() });
    renderScreen(<BookingNoShow booking={started(50 * HOUR, { status: "completed", no_show: r })} />, { auth: expert });
    expect(contestButton()).not.toBeInTheDocument();
    expect(screen.getByTestId("no-show-deadline")).toHaveTextContent("Nobody contested it in time");
  });

  it("the creator reported absent by the expert may contest; the expert may not contest their own report", () => {
    const booking = started(HOUR, { no_show: report({ absent: "creator", note: "" }) });
    const { unmount } = renderScreen(<BookingNoShow booking={booking} />, { auth: expert });
    expect(screen.getByRole("region", { name: "No-show report" })).toHaveTextContent("You reported that Cora Creator did not join.");
    expect(screen.queryByTestId("no-show-note")).not.toBeInTheDocument();
    expect(contestButton()).not.toBeInTheDocument();
    unmount();
    renderScreen(<BookingNoShow booking={booking} />, { auth: creator });
    expect(screen.getByRole("region", { name: "No-show report" })).toHaveTextContent("Maya Lind reported that you did not join.");
    expect(contestButton()).toBeInTheDocument();
  });

  it.each([
    ["the creator", creator, "Maya Lind contested it"],
    ["the expert reported absent", expert, "You contested it"],
  ])("once contested, %s reads that our team decides, and nobody may contest again", (_who, auth, contested) => {
    const r = report({ contested: true, contest_note: "I was there.", contested_at: new Date(Date.now() - 5 * MINUTE).toISOString() });
    renderScreen(<BookingNoShow booking={started(2 * HOUR, { no_show: r })} />, { auth });
    const panel = screen.getByRole("region", { name: "No-show report" });
    expect(within(panel).getByTestId("no-show-contest")).toHaveTextContent(
      `${contested} on ${localMoment(r.contested_at!)}: “I was there.”`,
    );
    expect(panel).toHaveTextContent("Our team will review and decide.");
    expect(within(panel).queryByTestId("no-show-deadline")).not.toBeInTheDocument();
    expect(contestButton()).not.toBeInTheDocument();
  });
});

describe("a settled report", () => {
  const decided = report({
    contested: true,
    contest_note: "I was there.",
    contested_at: new Date(Date.now() - 20 * HOUR).toISOString(),
    outcome: "expert_no_show",
    refund_cents: 7_500,
    reason: "The room's log shows the expert joined 40 minutes late.",
    decided_by: "admin-1",
    settled_at: new Date(Date.now() - HOUR).toISOString(),
  });

  it.each([
    ["creator", creator, "Maya Lind did not show: the report was upheld."],
    ["expert", expert, "You did not show: the report was upheld."],
  ])("the %s reads the outcome, the partial refund in the booking's currency and our team's reason", (_who, auth, outcome) => {
    const b = started(30 * HOUR, { status: "expert_no_show", no_show: decided });
    renderScreen(<BookingNoShow booking={b} />, { auth });
    const result = screen.getByTestId("no-show-outcome");
    expect(result).toHaveTextContent(outcome);
    expect(within(result).getByTestId("no-show-refund")).toHaveTextContent("Refund: $75 of the $150 paid.");
    expect(within(result).getByTestId("no-show-reason")).toHaveTextContent(
      "Our team's reason: The room's log shows the expert joined 40 minutes late.",
    );
    expect(screen.queryByRole("button", { name: "Contest" })).not.toBeInTheDocument();
    expect(reportButton()).not.toBeInTheDocument();
  });

  it("an uncontested report says it stood, with the full refund; a report not upheld counts the session as held", () => {
    const stood = report({ outcome: "expert_no_show", refund_cents: 15_000, reason: "uncontested", decided_by: "system" });
    const { unmount } = renderScreen(<BookingNoShow booking={started(60 * HOUR, { status: "expert_no_show", no_show: stood })} />, {
      auth: creator,
    });
    expect(screen.getByTestId("no-show-refund")).toHaveTextContent("Refund: the full $150 paid.");
    expect(screen.getByTestId("no-show-reason")).toHaveTextContent("Nobody contested the report in time, so it stands.");
    unmount();
    const held = { ...decided, outcome: "completed" as const, refund_cents: 0, reason: "The expert's recording shows the session." };
    renderScreen(<BookingNoShow booking={started(60 * HOUR, { status: "completed", no_show: held, currency: "EUR" })} />, { auth: expert });
    expect(screen.getByTestId("no-show-outcome")).toHaveTextContent("The session counts as held: the report was not upheld.");
    expect(screen.getByTestId("no-show-refund")).toHaveTextContent("No refund: the €150 paid stays with the expert.");
  });
});
