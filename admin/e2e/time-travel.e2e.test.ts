import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { calendarStream } from "@booking/engine";
import { DEMO_CREATOR, DEMO_PASSWORD, seedDemoData } from "../../api/src/main/seed.ts";
import { artifacts, consoleWalk } from "./console-walk.ts";

// Time travel in the console (issue 18), in a real Chromium against the real API: a booking made,
// paid and confirmed over HTTP; its timeline shows the booking as it was after any event, and the
// expert's calendar at an instant shows its time bookable before the request and held after it.

type Session = { access_token: string; user: { id: string } };

const made = { expertId: "", bookingId: "", scheduled: "", requestedAt: "" };

/** A booking of the demo creator with Ava, requested, paid with the test card and confirmed. */
const walk = consoleWalk(async ({ api, must, signIn }) => {
  // Without the demo's past and upcoming bookings: the walk's own booking is the one looked at.
  await seedDemoData(api.app, api.ctx, { history: false });
  const creator = await signIn(DEMO_CREATOR.email, DEMO_PASSWORD);
  const ava = await must<Session>("POST", "/auth/login", { body: { email: "ava@example.com", password: DEMO_PASSWORD } });
  made.expertId = ava.user.id;
  const sessions = await must<{ id: string; title: string }[]>("GET", `/experts/${ava.user.id}/sessions`);
  const session = sessions.find((s) => s.title === "Audience growth plan")!;
  const { times } = await must<{ times: string[] }>("GET", `/sessions/${session.id}/availability`);
  // A day ahead, clear of "now".
  made.scheduled = times.find((t) => Date.parse(t) > Date.now() + 36 * 3_600_000)!;
  const { booking } = await must<{ booking: { id: string } }>("POST", "/bookings", {
    token: creator,
    body: { session_id: session.id, scheduled_time: made.scheduled },
  });
  made.bookingId = booking.id;
  const intent = await must<{ clientSecret: string }>("POST", "/stripe/test-intent", { token: creator, body: { bookingId: booking.id } });
  await must("POST", "/payments/test/confirm", {
    token: creator,
    body: { client_secret: intent.clientSecret, card_number: "4242 4242 4242 4242" },
  });
  await must("PATCH", `/bookings/${booking.id}/status`, { token: ava.access_token, body: { status: "confirmed" } });
  const { events } = await api.ctx.store.readStream(calendarStream(made.expertId));
  made.requestedAt = events.find(
    (e) => e.type === "BookingRequested" && (e.data as { bookingId: string }).bookingId === booking.id,
  )!.metadata.at;
});

const eventually = <T>(value: () => T | Promise<T>) => expect.poll(value, { timeout: 15_000, interval: 100 });
/** A datetime-local value (the browser runs in UTC): the instant's wall clock to the millisecond. */
const utcInput = (instant: string) => new Date(instant).toISOString().slice(0, 23);

describe("time travel in the console", () => {
  it("shows the booking as it was after the event chosen in its timeline, with what changed, and steps through its history", async () => {
    await walk.page.goto(walk.consoleUrl(`/bookings/${made.bookingId}/show`));
    const entries = walk.page.getByTestId("timeline-entry");
    await eventually(() => entries.evaluateAll((nodes) => nodes.map((n) => n.getAttribute("data-type")))).toEqual([
      "BookingRequested",
      "PaymentSucceeded",
      "Confirmed",
    ]);

    // Just after the request: pending and unpaid, though the booking is confirmed now.
    await entries.first().getByRole("button", { name: "Show the booking as of this event" }).click();
    const panel = walk.page.getByTestId("as-of-panel");
    await eventually(() => panel.getAttribute("data-status")).toBe("pending");
    const row = (field: string) => panel.locator(`[data-testid=as-of-field][data-field=${field}]`);
    await eventually(() => row("status").getByTestId("as-of-after").textContent()).toBe("Pending");
    await eventually(() => row("paid_cents").getByTestId("as-of-after").textContent()).toBe("$0.00");
    await eventually(() => row("holds_time").getByTestId("as-of-after").textContent()).toBe("Yes");
    await eventually(() => panel.textContent()).toContain("step 1 of 3");
    // The page's own details (the read model) say confirmed meanwhile.
    await walk.page.getByText("Confirmed", { exact: true }).first().waitFor();

    // The next event: the payment, its fields highlighted as changed.
    await panel.getByRole("button", { name: "Next event" }).click();
    await eventually(() => walk.page.getByTestId("as-of-panel").getAttribute("data-event-id")).toBe(
      await entries.nth(1).getAttribute("data-event-id"),
    );
    await eventually(() => entries.nth(1).getAttribute("data-selected")).toBe("true");
    await eventually(() => row("paid_cents").getAttribute("data-changed")).toBe("true");
    await eventually(() => row("status").getAttribute("data-changed")).toBe("false");
    await eventually(() => row("paid_cents").getByTestId("as-of-before").textContent()).toBe("$0.00");
    await eventually(async () => (await row("paid_cents").getByTestId("as-of-after").textContent())?.startsWith("$0") === false).toBe(true);
    await walk.page.screenshot({ path: join(artifacts, "booking-as-of.png"), fullPage: true, animations: "disabled" });

    // The last: confirmed.
    await entries.nth(2).getByRole("button", { name: "Show the booking as of this event" }).click();
    await eventually(() => walk.page.getByTestId("as-of-panel").getAttribute("data-status")).toBe("confirmed");
    await eventually(() => row("status").getByTestId("as-of-before").textContent()).toBe("Pending");
    await eventually(() => row("status").getByTestId("as-of-after").textContent()).toBe("Confirmed");
    await eventually(() => row("status").getAttribute("data-changed")).toBe("true");
    expect(await walk.page.getByTestId("as-of-panel").getByRole("button", { name: "Next event" }).isDisabled()).toBe(true);
  });

  it("asks the expert's calendar at an instant: the booked time was bookable just before the request and held by it after", async () => {
    // From the booking's request in its timeline, to the calendar at that moment, on the booking's date.
    await walk.page.goto(walk.consoleUrl(`/bookings/${made.bookingId}/show`));
    await walk.page.getByTestId("timeline-entry").first().getByRole("button", { name: "Show the booking as of this event" }).click();
    await walk.page.getByRole("link", { name: "The expert's calendar at this moment" }).click();
    await eventually(() => walk.page.url()).toContain("/calendar-at?");
    const answer = walk.page.getByTestId("calendar-at");
    await eventually(() => answer.getAttribute("data-at")).toBe(made.requestedAt);
    const held = walk.page.locator(`[data-testid=held-time][data-booking-id="${made.bookingId}"]`);
    await eventually(() => held.getAttribute("data-start")).toBe(made.scheduled);
    await eventually(() => held.getAttribute("data-status")).toBe("pending");
    expect(await walk.page.locator(`[data-testid=bookable-time][data-time="${made.scheduled}"]`).count()).toBe(0);
    await walk.page.screenshot({ path: join(artifacts, "calendar-at-after-request.png"), fullPage: true, animations: "disabled" });

    // A millisecond before the request (the seed set the schedule in the same second): the time was free.
    const before = new Date(Date.parse(made.requestedAt) - 1).toISOString();
    await walk.page.getByLabel(/^Instant/).fill(utcInput(before));
    await walk.page.getByRole("button", { name: "Show the calendar" }).click();
    await eventually(() => answer.getAttribute("data-at")).toBe(before);
    await walk.page.locator(`[data-testid=bookable-time][data-time="${made.scheduled}"]`).waitFor();
    expect(await held.count()).toBe(0);
    await walk.page.screenshot({ path: join(artifacts, "calendar-at-before-request.png"), fullPage: true, animations: "disabled" });
  });

  it("opens the calendar at an instant from the expert's page, the expert chosen", async () => {
    await walk.page.goto(walk.consoleUrl(`/experts/${made.expertId}/show`));
    await walk.page.getByRole("link", { name: "Calendar at an instant" }).click();
    await eventually(() => decodeURIComponent(walk.page.url())).toContain(`expert=${made.expertId}`);
    await eventually(() => walk.page.getByRole("combobox", { name: "Expert" }).inputValue()).toContain("Ava");
    // Now: the booking is confirmed and holds its time.
    const held = walk.page.locator(`[data-testid=held-time][data-booking-id="${made.bookingId}"]`);
    await walk.page.getByTestId("calendar-at").waitFor();
    // The booking's date on Ava's wall clock (New York).
    const date = new Intl.DateTimeFormat("en-CA", {
      timeZone: "America/New_York",
      year: "numeric",
      month: "2-digit",
      day: "2-digit",
    }).format(new Date(made.scheduled));
    await walk.page.getByLabel(/^Date/).fill(date);
    await walk.page.getByRole("button", { name: "Show the calendar" }).click();
    await eventually(() => walk.page.getByTestId("calendar-at").getAttribute("data-date")).toBe(date);
    await eventually(() => held.getAttribute("data-status")).toBe("confirmed");
  });
});
