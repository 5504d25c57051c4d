import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import type { Booking } from "../shared/api-types.ts";
import { aBooking } from "../../test/booking-fixture.ts";
import { fakeApi, renderScreen, signedInAs } from "../../test/screen-harness.tsx";
import { CreatorDashboardPage } from "./creator-dashboard-page.tsx";
import { localMoment } from "../shared/local-time.ts";

const hours = (n: number) => new Date(Date.now() + n * 3_600_000).toISOString();
const booking = (id: string, scheduled_time: string, more: Partial<Booking> = {}): Booking =>
  aBooking({
    id,
    scheduled_time,
    session_id: "s-1",
    session_title: `Session ${id}`,
    session: { title: `Session ${id}`, price: 150, expertFirstName: "Maya" },
    held_until: hours(0.25),
    prep_response_1: "a",
    prep_response_2: "b",
    prep_response_3: "c",
    ...more,
  });

const auth = signedInAs("creator");
const cards = () => screen.getAllByTestId("creator-booking").map((c) => c.getAttribute("data-booking-id"));

describe("creator dashboard", () => {
  it("lists upcoming bookings soonest first (today's on top), then past ones most recent first", async () => {
    // As the API sends them: newest date first.
    fakeApi({
      "GET /bookings/creator/me": {
        status: 200,
        body: [
          booking("next-month", hours(24 * 30)),
          booking("tomorrow", hours(24)),
          booking("in-two-hours", hours(2)),
          booking("last-week", hours(-24 * 7), { status: "completed" }),
          booking("last-month", hours(-24 * 30), { status: "completed" }),
        ],
      },
    });
    renderScreen(<CreatorDashboardPage />, { auth });
    await screen.findByRole("heading", { name: "Upcoming" });
    expect(cards()).toEqual(["in-two-hours", "tomorrow", "next-month", "last-week", "last-month"]);
    const past = screen.getByRole("region", { name: "Past and cancelled" });
    expect(
      within(past)
        .getAllByTestId("creator-booking")
        .map((c) => c.getAttribute("data-booking-id")),
    ).toEqual(["last-week", "last-month"]);
  });

  it("offers Complete payment and Release this time on a booking awaiting payment", async () => {
    const unpaid = booking("b-1", hours(48), { status: "pending", paid: false, payment_state: "unpaid", prep_response_1: null });
    let listed = [unpaid];
    const calls = fakeApi({
      "GET /bookings/creator/me": () => ({ status: 200, body: listed }),
      "PATCH /bookings/b-1/status": () => {
        listed = [{ ...unpaid, status: "cancelled", cancelled_by: "creator" }];
        return { status: 200, body: listed[0] };
      },
    });
    renderScreen(<CreatorDashboardPage />, { auth });
    const pay = await screen.findByRole("link", { name: "Complete payment" });
    expect(pay).toHaveAttribute("href", "/book-session/s-1?booking=b-1");
    // Nothing to prepare for until it is paid.
    expect(screen.queryByRole("button", { name: "Answer Preparation Questions" })).not.toBeInTheDocument();
    await userEvent.click(screen.getByRole("button", { name: /Release this time/ }));
    const dialog = screen.getByRole("dialog", { name: "Release this time?" });
    await userEvent.click(within(dialog).getByRole("button", { name: "Yes, Release" }));
    await waitFor(() => expect(screen.getByTestId("booking-status")).toHaveTextContent("Cancelled"));
    expect(calls.find((c) => c.method === "PATCH")?.body).toEqual({ status: "cancelled" });
    expect(screen.queryByRole("link", { name: "Complete payment" })).not.toBeInTheDocument();
  });
  it("shows the expert's reason when they declined", async () => {
    fakeApi({
      "GET /bookings/creator/me": {
        status: 200,
        body: [
          booking("declined", hours(48), { status: "cancelled", cancelled_by: "expert", cancel_reason: "I am travelling that week." }),
        ],
      },
    });
    renderScreen(<CreatorDashboardPage />, { auth });
    expect(await screen.findByText("Maya declined: I am travelling that week.")).toBeInTheDocument();
  });
  it("says when a confirmed booking was confirmed", async () => {
    fakeApi({
      "GET /bookings/creator/me": { status: 200, body: [booking("accepted", hours(48), { confirmed_at: "2030-03-02T09:30:00.000Z" })] },
    });
    renderScreen(<CreatorDashboardPage />, { auth });
    expect(await screen.findByTestId("booking-confirmed-at")).toHaveTextContent(`Confirmed on ${localMoment("2030-03-02T09:30:00.000Z")}`);
  });
  it("shows where the money is: paid, a refund pending, refunded, with amounts", async () => {
    const cancelled = {
      status: "cancelled" as const,
      cancelled_by: "creator",
      payment_state: "refund_due" as const,
      refund_due_cents: 15_000,
    };
    fakeApi({
      "GET /bookings/creator/me": {
        status: 200,
        body: [
          booking("paid", hours(24), { paid_cents: 15_000 }),
          booking("pending-refund", hours(48), { ...cancelled, refund_state: "pending" }),
          booking("refunded", hours(72), { ...cancelled, payment_state: "refunded", refund_state: "refunded", refunded_cents: 15_000 }),
          booking("partly", hours(-24), {
            status: "completed",
            payment_state: "refund_due",
            refund_state: "failed",
            paid_cents: 15_050,
            refund_due_cents: 10_000,
            refunded_cents: 4_000,
          }),
          booking("unpaid", hours(96), { status: "pending", paid: false, payment_state: "unpaid", paid_cents: 0 }),
        ],
      },
    });
    renderScreen(<CreatorDashboardPage />, { auth });
    await screen.findByRole("heading", { name: "Upcoming" });
    const money = (id: string) =>
      within(screen.getAllByTestId("creator-booking").find((c) => c.getAttribute("data-booking-id") === id)!).queryByTestId("booking-money")
        ?.textContent ?? null;
    expect(money("paid")).toBe("Paid $150");
    expect(money("pending-refund")).toBe("Paid $150 · Refund of $150 pending");
    expect(money("refunded")).toBe("Paid $150 · Refunded $150");
    expect(money("partly")).toBe("Paid $150.50 · Refunded $40 · Refund of $60 pending");
    expect(money("unpaid")).toBeNull();
  });
});

// Issue 34.5: the API pages a person's bookings, newest first; older ones are a button away, never dropped.
describe("creator dashboard, page by page", () => {
  const older = "/bookings/creator/me?before=MjAzMC0wMS0wMXxvbGQ&limit=500";

  it("shows the first page, loads the older page the Link header names on request, then says the list is complete", async () => {
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    const calls = fakeApi({
      "GET /bookings/creator/me": {
        status: 200,
        body: [booking("tomorrow", hours(24)), booking("yesterday", hours(-24), { status: "completed" })],
        headers: { link: `</api/v1${older}>; rel="next"` },
      },
      [`GET ${older}`]: async () => {
        await held;
        return { status: 200, body: [booking("last-month", hours(-24 * 30), { status: "completed" })] };
      },
    });
    renderScreen(<CreatorDashboardPage />, { auth });
    const more = await screen.findByRole("button", { name: "Show older bookings" });
    expect(cards()).toEqual(["tomorrow", "yesterday"]);
    expect(calls.map((c) => c.path)).not.toContain(older);

    await userEvent.click(more);
    expect(await screen.findByRole("button", { name: "Loading older bookings…" })).toBeDisabled();
    expect(calls.map((c) => c.path)).toContain(older);
    release();

    await waitFor(() => expect(cards()).toEqual(["tomorrow", "yesterday", "last-month"]));
    const past = screen.getByRole("region", { name: "Past and cancelled" });
    expect(
      within(past)
        .getAllByTestId("creator-booking")
        .map((c) => c.getAttribute("data-booking-id")),
    ).toEqual(["yesterday", "last-month"]);
    expect(screen.queryByRole("button", { name: /older bookings/ })).not.toBeInTheDocument();
    expect(screen.getByText("That's all your bookings.")).toBeInTheDocument();
  });

  it("shows no button and no closing line when one page holds every booking", async () => {
    const calls = fakeApi({
      "GET /bookings/creator/me": {
        status: 200,
        body: [booking("tomorrow", hours(24)), booking("yesterday", hours(-24), { status: "completed" })],
      },
    });
    renderScreen(<CreatorDashboardPage />, { auth });
    await screen.findByRole("region", { name: "Past and cancelled" });
    expect(cards()).toEqual(["tomorrow", "yesterday"]);
    expect(screen.queryByRole("button", { name: /older bookings/ })).not.toBeInTheDocument();
    expect(screen.queryByText("That's all your bookings.")).not.toBeInTheDocument();
    expect(calls.filter((c) => c.path.startsWith("/bookings/creator/me"))).toHaveLength(1);
  });
});
