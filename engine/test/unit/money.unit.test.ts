import { describe, expect, it } from "vitest";
import { earningSplit, feeCents, releasableAt, sumMoney } from "@booking/contracts";

describe("money rules", () => {
  describe("the fee", () => {
    it("15 % of $150 is $22.50", () => {
      expect(feeCents(15_000, 1500)).toBe(2250);
    });
    it("rounded half up to a whole cent", () => {
      expect(feeCents(10, 1500)).toBe(2); // 1.5 -> 2
      expect(feeCents(3, 1500)).toBe(0); // 0.45 -> 0
      expect(feeCents(7, 1500)).toBe(1); // 1.05 -> 1
      expect(feeCents(1, 5000)).toBe(1); // 0.5 -> 1
      expect(feeCents(33, 1500)).toBe(5); // 4.95 -> 5
    });
    it("no fee at rate 0 (bookings paid before fees were recorded), all of it at 100 %", () => {
      expect(feeCents(15_000, 0)).toBe(0);
      expect(feeCents(15_000, 10_000)).toBe(15_000);
    });
  });

  describe("the expert's share", () => {
    it("nothing refunded: price less the fee", () => {
      expect(earningSplit(15_000, 0, 1500)).toEqual({ keptCents: 15_000, feeCents: 2250, shareCents: 12_750 });
    });
    it("after a partial refund: the fee is on what was kept", () => {
      expect(earningSplit(15_000, 5000, 1500)).toEqual({ keptCents: 10_000, feeCents: 1500, shareCents: 8500 });
      expect(earningSplit(9999, 3333, 1500)).toEqual({ keptCents: 6666, feeCents: 1000, shareCents: 5666 });
    });
    it("after a full refund (or more): nothing, never below zero", () => {
      expect(earningSplit(15_000, 15_000, 1500)).toEqual({ keptCents: 0, feeCents: 0, shareCents: 0 });
      expect(earningSplit(15_000, 20_000, 1500)).toEqual({ keptCents: 0, feeCents: 0, shareCents: 0 });
    });
    it("fee and share always add up to what was kept", () => {
      for (let kept = 0; kept < 2000; kept += 7) {
        const s = earningSplit(kept + 100, 100, 1500);
        expect(s.feeCents + s.shareCents).toBe(kept);
      }
    });
  });

  describe("the release", () => {
    it("7 days after completion, to the millisecond", () => {
      expect(releasableAt("2030-03-10T12:00:00.000Z")).toBe("2030-03-17T12:00:00.000Z");
      expect(releasableAt("2030-03-10T12:00:00.001Z")).toBe("2030-03-17T12:00:00.001Z");
    });
  });

  describe("sums", () => {
    it("adds amounts of one currency", () => {
      expect(
        sumMoney("EUR", [
          { amountCents: 100, currency: "EUR" },
          { amountCents: 250, currency: "EUR" },
        ]),
      ).toEqual({
        amountCents: 350,
        currency: "EUR",
      });
      expect(sumMoney("GBP", [])).toEqual({ amountCents: 0, currency: "GBP" });
    });
    it("refuses to add across currencies", () => {
      expect(() =>
        sumMoney("USD", [
          { amountCents: 100, currency: "USD" },
          { amountCents: 100, currency: "EUR" },
        ]),
      ).toThrow(/EUR/);
    });
  });
});
