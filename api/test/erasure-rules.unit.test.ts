import { describe, expect, it } from "vitest";
import { refusalMessage, refusalStatus } from "@booking/contracts";
import { erasureRefusal, type ErasureFacts } from "../src/personal-data/erasure-rules.ts";

// When an account may be erased (issue 33.2): never while something is open between the person and someone else, nor
// while money is owed to or by them, nor for the last admin; each refusal says what to settle first (a 409, never 5xx).

const settled: ErasureFacts = {
  role: "creator",
  otherAdmins: 0,
  openBookings: [],
  refundsPending: 0,
  disputesOpen: 0,
  noShowReportsOpen: 0,
  earningsUnpaid: [],
};
const message = (facts: Partial<ErasureFacts>) => {
  const r = erasureRefusal({ ...settled, ...facts });
  return r && { code: r.code, status: refusalStatus(r), message: refusalMessage(r) };
};

describe("erasure rules", () => {
  it("allow a creator or an expert with nothing open and nothing owed", () => {
    expect(erasureRefusal(settled)).toBeNull();
    expect(erasureRefusal({ ...settled, role: "expert", earningsUnpaid: [{ currency: "USD", cents: 0 }] })).toBeNull();
    expect(erasureRefusal({ ...settled, role: "admin", otherAdmins: 1 })).toBeNull();
  });

  it("refuse the last admin, whatever else holds", () => {
    expect(message({ role: "admin", otherAdmins: 0 })).toEqual({
      code: "erasure_last_admin",
      status: 409,
      message: "You are the only admin, and the console needs one. Another admin account must be set up before this one can be deleted.",
    });
  });

  it("refuse while bookings are open, naming the first three by title and day, earliest first, and counting the rest", () => {
    expect(message({ openBookings: [{ title: "Pricing review", scheduledTime: "2030-03-05T10:00:00.000Z" }] })).toEqual({
      code: "erasure_open_bookings",
      status: 409,
      message: "Your account cannot be deleted while you have 1 open booking: “Pricing review” on 2030-03-05. Cancel or finish it first.",
    });
    const five = ["2030-03-09", "2030-03-05", "2030-03-08", "2030-03-06", "2030-03-07"].map((day, i) => ({
      title: `Session ${i + 1}`,
      scheduledTime: `${day}T10:00:00.000Z`,
    }));
    expect(message({ openBookings: five })?.message).toBe(
      "Your account cannot be deleted while you have 5 open bookings: “Session 2” on 2030-03-05, “Session 4” on 2030-03-06, " +
        "“Session 5” on 2030-03-07 and 2 more. Cancel or finish them first.",
    );
  });

  it("refuse while money is owed to or by them, saying each thing to settle", () => {
    expect(message({ refundsPending: 1 })?.message).toBe(
      "Your account cannot be deleted while money is still owed to or by you: 1 refund not paid back yet. It can be deleted once that is settled.",
    );
    const all = message({
      role: "expert",
      refundsPending: 2,
      disputesOpen: 1,
      noShowReportsOpen: 1,
      earningsUnpaid: [
        { currency: "USD", cents: 12_750 },
        { currency: "EUR", cents: 4_000 },
      ],
    });
    expect(all).toMatchObject({ code: "erasure_money_owed", status: 409 });
    expect(all?.message).toContain(
      "2 refunds not paid back yet; 1 payment dispute still open; 1 no-show report not settled yet; " +
        "earnings of 127.50 USD and 40.00 EUR not paid out to you yet.",
    );
  });

  it("name open bookings before money: a booking still open may yet owe money", () => {
    expect(message({ openBookings: [{ title: "A", scheduledTime: "2030-01-01T00:00:00.000Z" }], refundsPending: 1 })?.code).toBe(
      "erasure_open_bookings",
    );
  });
});
