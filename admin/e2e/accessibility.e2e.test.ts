import { describe, expect, it } from "vitest";
import type { Actor } from "@booking/contracts";
import { calendarStream } from "@booking/engine";
import { commandHandlers } from "../../api/src/main/commands.ts";
import { DEMO_CREATOR, DEMO_PASSWORD, seedDemoData } from "../../api/src/main/seed.ts";
import { seriousViolations, type AxeViolation } from "../../web/e2e/chromium.ts";
import { ADMIN } from "../../web/e2e/product-server.ts";
import { consoleWalk } from "./console-walk.ts";

// Issue 27.21: axe-core reports no serious or critical violation on the console's main screens
// (it found colour contrast on the bookings list, a label/name mismatch and no h1). Each screen
// is opened with data in it: the demo's experts, a booking paid and confirmed, one cancelled and refunded, and a
// no-show report on the confirmed one, contested (issue 31.1), and a test dispute of its payment (issue 31.2).

const made = { bookingId: "", disputeId: "" };

const walk = consoleWalk(async ({ api, must, signIn }) => {
  await seedDemoData(api.app, api.ctx, { history: false });
  const creator = await signIn(DEMO_CREATOR.email, DEMO_PASSWORD);
  const ava = await signIn("ava@example.com", DEMO_PASSWORD);
  const avaId = (await must<{ id: string }>("GET", "/auth/me", { token: ava })).id;
  const sessions = await must<{ id: string; title: string }[]>("GET", `/experts/${avaId}/sessions`);
  const session = sessions.find((s) => s.title === "Audience growth plan")!;
  const { times } = await must<{ times: string[] }>("GET", `/sessions/${session.id}/availability`);
  const later = times.filter((t) => Date.parse(t) > Date.now() + 36 * 3_600_000);
  const bookPaid = async (scheduled_time: string) => {
    const { booking } = await must<{ booking: { id: string } }>("POST", "/bookings", {
      token: creator,
      body: { session_id: session.id, scheduled_time },
    });
    const intent = await must<{ clientSecret: string }>("POST", "/stripe/test-intent", { token: creator, body: { bookingId: booking.id } });
    await must("POST", "/payments/test/confirm", {
      token: creator,
      body: { client_secret: intent.clientSecret, card_number: "4242 4242 4242 4242" },
    });
    return booking.id;
  };
  made.bookingId = await bookPaid(later[0]!);
  await must("PATCH", `/bookings/${made.bookingId}/status`, { token: ava, body: { status: "confirmed" } });
  // The creator reports Ava absent and she contests, decided as if the session had started (a walk cannot wait for it).
  const started = new Date(Date.parse(later[0]!) + 10 * 60_000).toISOString();
  const calendar = commandHandlers(api.ctx.store, () => started).calendar;
  const creatorId = (await must<{ id: string }>("GET", "/auth/me", { token: creator })).id;
  const onBooking = { expertId: avaId, bookingId: made.bookingId };
  const step = async (type: "ReportNoShow" | "ContestNoShow", actor: Actor, note: string) => {
    const result = await calendar.handle(calendarStream(avaId), { type, ...onBooking, actor, note }, { actor });
    if (!result.ok) throw new Error(`${type} refused: ${JSON.stringify(result)}`);
  };
  await step("ReportNoShow", { role: "creator", userId: creatorId }, "Waited 20 minutes; nobody came.");
  await step("ContestNoShow", { role: "expert", userId: avaId }, "I was in the room.");
  // The creator's bank disputes the payment: the test provider's stand-in, on the payment the booking's history names.
  const admin = await signIn(ADMIN.email, ADMIN.password);
  const { timeline } = await must<{ timeline: { type: string; data: { paymentId?: string } }[] }>(
    "GET",
    `/admin/bookings/${made.bookingId}`,
    { token: admin },
  );
  const paymentId = timeline.find((e) => e.type === "PaymentSucceeded")?.data.paymentId;
  const dispute = await must<{ id: string }>("POST", `/admin/payments/${encodeURIComponent(String(paymentId))}/test-dispute`, {
    token: admin,
    body: { reason: "product_not_received" },
  });
  made.disputeId = dispute.id;
  const cancelled = await bookPaid(later.find((t) => t.slice(0, 10) !== later[0]!.slice(0, 10))!);
  await must("PATCH", `/bookings/${cancelled}/status`, { token: creator, body: { status: "cancelled", reason: "Schedule clash" } });
});

/** The console's main screens, each with what shows it has loaded. */
const screens: { name: string; path: string; loaded: string }[] = [
  { name: "dashboard", path: "/", loaded: "[data-testid=bookings-by-status]" },
  { name: "bookings", path: "/bookings", loaded: "table tbody tr.RaDataTable-row" },
  { name: "booking", path: "", loaded: "[data-testid=booking-no-show]" },
  { name: "no-shows", path: "/no-shows", loaded: "table tbody tr.RaDataTable-row" },
  { name: "no-show", path: "no-show", loaded: "[data-testid=no-show-decision]" },
  { name: "disputes", path: "/disputes", loaded: "table tbody tr.RaDataTable-row" },
  { name: "dispute", path: "dispute", loaded: "[data-testid=booking-timeline] [data-testid=timeline-entry]" },
  { name: "users", path: "/users", loaded: "table tbody tr.RaDataTable-row" },
  { name: "experts", path: "/experts", loaded: "table tbody tr.RaDataTable-row" },
  { name: "sessions", path: "/sessions", loaded: "table tbody tr.RaDataTable-row" },
  { name: "refunds", path: "/refunds", loaded: "table tbody tr.RaDataTable-row" },
  { name: "events", path: "/events", loaded: "table tbody tr.RaDataTable-row" },
  { name: "mailbox", path: "/mailbox", loaded: "table tbody tr.RaDataTable-row" },
];

/** A screen's route; the booking's, its report's and its dispute's pages are the walk's booking. */
const pathOf = (path: string) =>
  path === ""
    ? `/bookings/${made.bookingId}/show`
    : path === "no-show"
      ? `/no-shows/${made.bookingId}/show`
      : path === "dispute"
        ? `/disputes/${encodeURIComponent(made.disputeId)}/show`
        : path;

describe("the console's accessibility", () => {
  it("has no serious or critical axe violation on its main screens, and one h1 on each", async () => {
    const found: Record<string, AxeViolation[]> = {};
    const headings: Record<string, number> = {};
    for (const screen of screens) {
      await walk.page.goto(walk.consoleUrl(pathOf(screen.path)));
      await walk.page.locator(screen.loaded).first().waitFor();
      // The list's or record's data settles (react-admin shows placeholders while it loads).
      await walk.page.waitForLoadState("networkidle");
      found[screen.name] = await seriousViolations(walk.page);
      headings[screen.name] = await walk.page.locator("h1").count();
    }
    const summary = Object.fromEntries(
      Object.entries(found).map(([name, violations]) => [
        name,
        violations.map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(" ")).join(", ")})`),
      ]),
    );
    expect(summary).toEqual(Object.fromEntries(screens.map((s) => [s.name, []])));
    expect(headings).toEqual(Object.fromEntries(screens.map((s) => [s.name, 1])));
  }, 300_000);
});
