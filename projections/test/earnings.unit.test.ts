import { describe, expect, it } from "vitest";
import { EarningsRecord, type DomainEvent } from "@booking/contracts";
import { earningsProjection, evolveEarnings } from "../src/index.ts";
import { readModelSpec, storedEvents, type GivenEvent } from "./read-model-spec.ts";

// The earnings read model's rule without a database: given these events, then these rows. The
// spec's events are a minute apart from 2030-01-06 09:00 UTC (all in 2030-01); the month test
// moves one event's time.

const spec = readModelSpec(earningsProjection);
const on = (expert: string, event: DomainEvent): GivenEvent => ({ stream: `calendar-${expert}`, event });
const paid = (bookingId: string, amountCents: number): DomainEvent => ({ type: "PaymentSucceeded", data: { bookingId, paymentId: `p-${bookingId}`, amountCents, provider: "test" } });

describe("earnings read model: given events, then rows", () => {
  it("payments add up per expert and month, in a row of the contracts' shape", () => {
    const given = spec.given(on("e1", paid("b1", 15_000)), on("e1", paid("b2", 9_000)), on("e2", paid("b3", 5_000)));
    given.then([
      { expert_id: "e1", month: "2030-01", payments_count: 2, paid_cents: 24_000, refunded_cents: 0, stream_version: 2 },
      { expert_id: "e2", month: "2030-01", payments_count: 1, paid_cents: 5_000, refunded_cents: 0, stream_version: 1 },
    ]);
    for (const row of given.rows()) expect(EarningsRecord.safeParse(row).success).toBe(true);
  });

  it("refunds count against the month: a refund due and a refunding cancellation, not a free cancellation", () => {
    spec.given(
      on("e1", paid("b1", 15_000)),
      on("e1", { type: "RefundDue", data: { bookingId: "b1", paymentId: "p-b1", amountCents: 5_000, reason: "Partly refunded" } }),
      on("e1", { type: "Cancelled", data: { bookingId: "b2", by: "creator", reason: "Moved", refundCents: 9_000 } }),
      on("e1", { type: "Cancelled", data: { bookingId: "b3", by: "system", reason: "Hold expired", refundCents: 0 } }),
    ).then([{ expert_id: "e1", month: "2030-01", payments_count: 1, paid_cents: 15_000, refunded_cents: 14_000, stream_version: 3 }]);
  });

  it("a payment in the next month (UTC) starts that month's row; the first month keeps its own", () => {
    const [january, february] = storedEvents([on("e1", paid("b1", 15_000)), on("e1", paid("b2", 9_000))]);
    const later = { ...february!, stored: { ...february!.stored, metadata: { at: "2030-02-01T00:30:00.000Z" } } };
    if (earningsProjection.kind !== "entity") throw new Error("earnings is one row per expert and month");
    expect(earningsProjection.rowKey(later)).toEqual(["e1", "2030-02"]);
    const januaryRow = evolveEarnings(undefined, january!);
    expect(evolveEarnings(undefined, later)).toEqual({ expert_id: "e1", month: "2030-02", payments_count: 1, paid_cents: 9_000, refunded_cents: 0, stream_version: 2 });
    expect(januaryRow).toMatchObject({ month: "2030-01", paid_cents: 15_000 });
  });

  it("events that move no money make no row", () => {
    spec.given(on("e1", { type: "Confirmed", data: { bookingId: "b1", by: "expert" } })).then([]);
  });
});
