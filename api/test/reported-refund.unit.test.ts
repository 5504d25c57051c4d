import { describe, expect, it } from "vitest";
import { judgeReportedRefund, type AskedRefund, type ReportedRefund } from "../src/refunds/reported-refund.ts";

// Which refunds a provider reports are recorded: only the one the product asked for under its key,
// for that amount, within what is left of the payment. The rest are listed for an admin.

const asked: AskedRefund = { refundKey: "ev-1", bookingId: "bk-1", expertId: "ex-1", amountCents: 500, refundId: null };
const claimed = { refundKey: "ev-1", bookingId: "bk-1", expertId: "ex-1" };
const report = (fields: Partial<ReportedRefund> = {}): ReportedRefund => ({ refundId: "re_1", amountCents: 500, claimed, ...fields });

describe("judging a refund the provider reports", () => {
  it("records the refund asked for under its key, for its amount, again when reported again", () => {
    expect(judgeReportedRefund(report(), asked, 2_000)).toEqual({ kind: "ours", refundKey: "ev-1", bookingId: "bk-1", expertId: "ex-1" });
    expect(judgeReportedRefund(report(), { ...asked, refundId: "re_1" }, 500)).toMatchObject({ kind: "ours" });
  });

  it("lists a refund without our metadata, under a key never issued, for another booking, or that is not the key's refund", () => {
    const unknown = { kind: "unmatched", why: "unknown_refund" };
    expect(judgeReportedRefund(report({ claimed: null }), null, 2_000)).toEqual(unknown);
    expect(judgeReportedRefund(report(), null, 2_000)).toEqual(unknown);
    expect(judgeReportedRefund(report({ claimed: { refundKey: "ev-1", bookingId: "bk-2", expertId: "ex-1" } }), asked, 2_000)).toEqual(
      unknown,
    );
    expect(judgeReportedRefund(report({ claimed: { refundKey: "ev-1", bookingId: "bk-1", expertId: "ex-2" } }), asked, 2_000)).toEqual(
      unknown,
    );
    expect(judgeReportedRefund(report({ refundId: "re_2" }), { ...asked, refundId: "re_1" }, 2_000)).toEqual(unknown);
  });

  it("refuses more than was asked for, or than is left of what was paid; lists less than was asked for", () => {
    expect(judgeReportedRefund(report({ amountCents: 999_999 }), asked, 2_000)).toEqual({ kind: "unmatched", why: "over_refund" });
    expect(judgeReportedRefund(report({ amountCents: 501 }), asked, 2_000)).toEqual({ kind: "unmatched", why: "over_refund" });
    // Asked for 500, but other refunds left only 400 of the payment.
    expect(judgeReportedRefund(report(), asked, 400)).toEqual({ kind: "unmatched", why: "over_refund" });
    expect(judgeReportedRefund(report({ amountCents: 499 }), asked, 2_000)).toEqual({ kind: "unmatched", why: "amount_differs" });
  });
});
