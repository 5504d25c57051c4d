import { describe, expect, it } from "vitest";
import type { Booking } from "../shared/api-types.ts";
import { arrangeBookings } from "./booking-order.ts";

const now = Date.parse("2026-03-10T12:00:00Z");
const b = (id: string, time: string, more: Partial<Booking> = {}) =>
  ({ id, scheduled_time: time, length_minutes: 60, status: "confirmed", paid: true, ...more }) as Booking;
const ids = (list: Booking[]) => list.map((x) => x.id);

describe("the dashboards' booking order", () => {
  const bookings = [
    b("next-month", "2026-04-10T09:00:00Z"),
    b("last-week", "2026-03-03T09:00:00Z", { status: "completed" }),
    b("today-later", "2026-03-10T15:00:00Z"),
    b("running-now", "2026-03-10T11:30:00Z"),
    b("yesterday", "2026-03-09T09:00:00Z"),
    b("cancelled-future", "2026-03-20T09:00:00Z", { status: "cancelled" }),
    b("new-request", "2026-03-25T09:00:00Z", { status: "pending", paid: true }),
    b("unpaid-request", "2026-03-11T09:00:00Z", { status: "pending", paid: false }),
  ];

  it("puts today's session first among the upcoming ones, and the most recent first among the past", () => {
    const { needsAction, upcoming, past } = arrangeBookings(bookings, now, "creator");
    expect(needsAction).toEqual([]);
    expect(ids(upcoming)).toEqual(["running-now", "today-later", "unpaid-request", "new-request", "next-month"]);
    expect(ids(past)).toEqual(["cancelled-future", "yesterday", "last-week"]);
  });

  it("puts the expert's paid requests awaiting acceptance above everything else", () => {
    const { needsAction, upcoming } = arrangeBookings(bookings, now, "expert");
    expect(ids(needsAction)).toEqual(["new-request"]);
    expect(ids(upcoming)).toEqual(["running-now", "today-later", "unpaid-request", "next-month"]);
  });
});

describe("a request to move a booking", () => {
  it("puts it among the expert's bookings to act on, until it is answered", () => {
    const asked = b("asked", "2026-03-30T09:00:00Z", { reschedule_to: "2026-03-31T09:00:00Z" });
    const { needsAction, upcoming } = arrangeBookings([asked, b("plain", "2026-03-29T09:00:00Z")], now, "expert");
    expect(ids(needsAction)).toEqual(["asked"]);
    expect(ids(upcoming)).toEqual(["plain"]);
    expect(arrangeBookings([asked], now, "creator").needsAction).toEqual([]);
    expect(ids(arrangeBookings([{ ...asked, reschedule_to: null }], now, "expert").upcoming)).toEqual(["asked"]);
  });
});
