import { describe, expect, it } from "vitest";
import { centsOfTyped, currencySymbol, deductionText, moneyText, percentText } from "./money.ts";

describe("money as the app writes it", () => {
  it("writes minor units in their own currency, with the cents kept for tables and dropped from whole amounts in sentences", () => {
    expect(moneyText(15_050, "USD", { locale: "en-US" })).toBe("$150.50");
    expect(moneyText(15_000, "USD", { locale: "en-US" })).toBe("$150.00");
    expect(moneyText(15_000, "USD", { locale: "en-US", short: true })).toBe("$150");
    expect(moneyText(12_750, "USD", { locale: "en-US", short: true })).toBe("$127.50");
    expect(moneyText(5, "USD", { locale: "en-US", short: true })).toBe("$0.05");
    expect(moneyText(123_450, "EUR", { locale: "en-US" })).toBe("€1,234.50");
    expect(moneyText(15_000, "GBP", { locale: "en-US", short: true })).toBe("£150");
    expect(moneyText(15_000, "CAD", { locale: "en-US", short: true })).toBe("CA$150");
    expect(moneyText(15_000, "AUD", { locale: "en-US", short: true })).toBe("A$150");
  });

  it("follows the reader's locale, as dates do, and an amount without a currency is in US dollars", () => {
    const own = Object.getOwnPropertyDescriptor(window.navigator, "language");
    Object.defineProperty(window.navigator, "language", { value: "en-GB", configurable: true });
    try {
      expect(["USD", "EUR", "GBP", "CAD", "AUD"].map((c) => moneyText(15_050, c as "USD"))).toEqual([
        "US$150.50",
        "€150.50",
        "£150.50",
        "CA$150.50",
        "A$150.50",
      ]);
    } finally {
      if (own) Object.defineProperty(window.navigator, "language", own);
      else delete (window.navigator as { language?: string }).language;
    }
    expect(moneyText(15_050)).toBe("$150.50");
    expect(moneyText(15_050, "EUR", { locale: "de-DE" })).toBe("150,50\u00a0€");
  });

  it("names deductions, the currency's sign, typed prices and the fee", () => {
    expect(deductionText(9_000, "USD")).toBe("−$90.00");
    expect(deductionText(0, "USD")).toBe("—");
    expect([currencySymbol("USD", "en-US"), currencySymbol("EUR", "en-US"), currencySymbol("CAD", "en-US")]).toEqual(["$", "€", "CA$"]);
    expect([centsOfTyped("150"), centsOfTyped("127.5"), centsOfTyped("0.29"), centsOfTyped(""), centsOfTyped("1.2.3")]).toEqual([
      15_000,
      12_750,
      29,
      null,
      null,
    ]);
    expect([percentText(1500, "en-US"), percentText(1250, "en-US")]).toEqual(["15 %", "12.5 %"]);
  });
});
