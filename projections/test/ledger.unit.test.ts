import { describe, expect, it } from "vitest";
import { LedgerEntryRecord, LedgerPostingRecord, type DomainEvent } from "@booking/contracts";
import { bookEntries, ledgerProjection, statementOf, type LedgerBookRow } from "../src/index.ts";
import { foldRows, readModelSpec, type GivenEvent } from "./read-model-spec.ts";
import { B1_GIVEN_BACK, X1, X2, moneyStory, unpaidStory } from "./ledger-events.ts";

// The ledger read model's rule without a database: given money events on the calendar and payouts
// streams, then its books (one per booking's calendar money, booking's earning, payout) and their
// entries, balanced per currency, with the currency and payout amount the events themselves lack.

const spec = readModelSpec(ledgerProjection);
const books = () => foldRows(ledgerProjection, moneyStory) as LedgerBookRow[];
const entries = () => books().flatMap(bookEntries);
const line = (e: LedgerEntryRecord) => [e.event_type, e.account, e.currency, e.debit_cents, e.credit_cents];

describe("ledger read model: given events, then books", () => {
  it("a book per booking's calendar money, per booking's earning and per payout; a payout's requested amount kept", () => {
    expect(books().map((b) => [b.book_id, b.expert_id, b.booking_id, b.currency, b.requested_cents])).toEqual([
      ["booking:b1", X1, "b1", "EUR", null],
      ["booking:b2", X1, "b2", null, null],
      ["booking:b3", X2, "b3", "GBP", null],
      ["earning:b1", X1, "b1", "EUR", null],
      [`payout:${X1}:po-1`, X1, null, "EUR", 8_500],
      [`payout:${X2}:po-1`, X2, null, "GBP", 3_000],
    ]);
    for (const posting of books().flatMap((b) => b.journal)) LedgerPostingRecord.parse(posting);
    for (const e of entries()) LedgerEntryRecord.parse(e);
  });

  it("a booking's entries: payment, refund owed and issued in its own currency, each with its event", () => {
    const b1 = books().find((b) => b.book_id === "booking:b1")!;
    expect(bookEntries(b1).map(line)).toEqual([
      ["PaymentSucceeded", "platform_cash", "EUR", 15_000, 0],
      ["PaymentSucceeded", "bookings_held", "EUR", 0, 15_000],
      ["RefundDue", "bookings_held", "EUR", 5_000, 0],
      ["RefundDue", "refunds_payable", "EUR", 0, 5_000],
      ["RefundIssued", "refunds_payable", "EUR", 5_000, 0],
      ["RefundIssued", "platform_cash", "EUR", 0, 5_000],
    ]);
    expect(bookEntries(b1)[0]).toMatchObject({ event_id: "ev-1", position: "2:2", at: "2030-01-06T09:01:00.000Z", booking_id: "b1" });
  });

  it("a booking from before issue 29 (no currency on any event) is posted in US dollars", () => {
    const b2 = books().find((b) => b.book_id === "booking:b2")!;
    expect(new Set(bookEntries(b2).map((e) => e.currency))).toEqual(new Set(["USD"]));
    expect(bookEntries(b2).map(line)).toContainEqual(["RefundIssued", "platform_cash", "USD", 0, 9_900]);
  });

  it("a payout paid posts the amount its request asked for; a failed one posts nothing", () => {
    const [mine, theirs] = books().filter((b) => b.book_id.startsWith("payout:"));
    expect(bookEntries(mine!).map(line)).toEqual([
      ["PayoutPaid", `expert_payable:${X1}`, "EUR", 8_500, 0],
      ["PayoutPaid", `expert_connected:${X1}`, "EUR", 0, 8_500],
    ]);
    expect(theirs!.journal).toEqual([]);
  });

  it("every currency's debits equal its credits; the expert's accounts hold what is theirs", () => {
    const sums = new Map<string, number>();
    const add = (key: string, cents: number) => sums.set(key, (sums.get(key) ?? 0) + cents);
    for (const e of entries()) {
      add(e.currency, e.debit_cents - e.credit_cents);
      add(`${e.currency} ${e.account}`, e.debit_cents - e.credit_cents);
    }
    for (const currency of ["EUR", "USD", "GBP"]) expect(sums.get(currency), currency).toBe(0);
    // Released 12750, given back 4250 after the refund, 8500 paid out: the platform owes expert 1 nothing more.
    expect(sums.get(`EUR expert_payable:${X1}`) ?? 0).toBe(0);
    // Transferred 12750, reversed 4250, paid out 8500: nothing left on their connected account.
    expect(sums.get(`EUR expert_connected:${X1}`) ?? 0).toBe(0);
    expect(sums.get("EUR platform_fee_revenue")).toBe(-(2_250 - B1_GIVEN_BACK.feeCents));
  });

  it("a booking never paid opens no book: its request, expiry and cancellation move no money", () => {
    spec.given(...unpaidStory).then([]);
  });

  it("an event that moves no money leaves the book as it was", () => {
    const confirmed: DomainEvent = { type: "Confirmed", data: { bookingId: "b1", by: "expert" } };
    const given: GivenEvent[] = [...moneyStory.slice(0, 2), { stream: `calendar-${X1}`, event: confirmed }];
    spec.given(...given).then([{ book_id: "booking:b1", stream_version: 2 }]);
  });
});

describe("an expert's statement of a month, from their entries", () => {
  it("earnings, fee, refunds after the release, transfers, reversals and payouts; closing = opening + earnings − fee − refunds − payouts", () => {
    const statement = statementOf(X1, "2030-01", entries());
    expect(statement).toEqual({
      expert_id: X1,
      month: "2030-01",
      currencies: [
        {
          currency: "EUR",
          opening_cents: 0,
          earnings_cents: 15_000,
          fee_cents: 2_250 - B1_GIVEN_BACK.feeCents,
          refunds_cents: B1_GIVEN_BACK.feeCents + B1_GIVEN_BACK.shareCents,
          transfers_cents: 12_750,
          reversals_cents: B1_GIVEN_BACK.shareCents,
          payouts_cents: 8_500,
          closing_cents: 0,
        },
      ],
    });
  });

  it("a month before any money is empty; a later month opens with what the earlier one closed on", () => {
    const released = entries().filter((e) => e.event_type === "EarningReleased");
    expect(statementOf(X1, "2029-12", released).currencies).toEqual([]);
    expect(statementOf(X1, "2030-02", released).currencies[0]).toMatchObject({
      opening_cents: 12_750,
      earnings_cents: 0,
      closing_cents: 12_750,
    });
  });
});
