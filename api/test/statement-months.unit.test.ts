import { describe, expect, it } from "vitest";
import { statementMonths } from "../src/statements/statement-months.ts";

// Which statements an expert can download: every month from their first money on, quiet ones too.

describe("an expert's statement months", () => {
  it("none before any money moved on their payouts stream", () => {
    expect(statementMonths(null, "2026-11-27T12:00:00.000Z")).toEqual([]);
  });

  it("from the first money's month to now, newest first, across a year's end, quiet months included", () => {
    const moments = { first: "2026-10-10T10:00:00.000Z", last: "2026-11-04T09:00:00.000Z" };
    expect(statementMonths(moments, "2027-01-02T08:00:00.000Z")).toEqual(["2027-01", "2026-12", "2026-11", "2026-10"]);
  });

  it("months are UTC's: money at 23:30 on 31 October in New York is November's", () => {
    const moments = { first: "2026-11-01T03:30:00.000Z", last: "2026-11-01T03:30:00.000Z" };
    expect(statementMonths(moments, "2026-11-27T12:00:00.000Z")).toEqual(["2026-11"]);
  });

  it("money dated after now (a clock moved on wrote it) still has its month", () => {
    const moments = { first: "2026-11-20T10:00:00.000Z", last: "2026-12-07T10:00:00.000Z" };
    expect(statementMonths(moments, "2026-11-27T12:00:00.000Z")).toEqual(["2026-12", "2026-11"]);
  });
});
