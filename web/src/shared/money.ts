import { CURRENCIES, DEFAULT_CURRENCY, type Currency } from "@booking/contracts";
import { viewerLocale } from "./viewer-locale.ts";

// The one place the app writes an amount of money (issue 29.8): integer minor units with their
// ISO 4217 currency, through Intl.NumberFormat in the viewer's locale, as dates are (issue 27.14):
// "$150.50", "€150.50", "CA$150.50" for an American reader; "US$150.50", "£150.50" for a British
// one. Never a "$" written by hand, never a float sum.

type MoneyStyle = {
  /** Whole amounts without their zero cents ("$150", "$150.50"), for sentences; tables keep them ("$150.00"). */
  short?: boolean;
  locale?: string;
};

const formats = new Map<string, Intl.NumberFormat>();

/** The formatter of a currency in a locale (made once: a list of amounts re-renders often). */
function format(currency: Currency, locale: string, fractionDigits?: number): Intl.NumberFormat {
  const key = `${currency} ${locale} ${fractionDigits ?? ""}`;
  let made = formats.get(key);
  if (!made) {
    made = new Intl.NumberFormat(locale, {
      style: "currency",
      currency,
      ...(fractionDigits !== undefined && { minimumFractionDigits: fractionDigits, maximumFractionDigits: fractionDigits }),
    });
    formats.set(key, made);
  }
  return made;
}

/** How many minor units make one of the currency (100 for every currency the product offers today). */
function minorUnitsOf(currency: Currency): number {
  return 10 ** (format(currency, "en-US").resolvedOptions().maximumFractionDigits ?? 2);
}

/** 15050 USD -> "$150.50"; with `short`, 15000 -> "$150". A missing currency is the one history kept before issue 29: US dollars. */
export function moneyText(cents: number, currency: Currency = DEFAULT_CURRENCY, style: MoneyStyle = {}): string {
  const locale = style.locale ?? viewerLocale();
  const perUnit = minorUnitsOf(currency);
  const whole = cents % perUnit === 0;
  return format(currency, locale, style.short && whole ? 0 : undefined).format(cents / perUnit);
}

/** An amount taken off ("−$90.00"), or a dash when there is none. */
export function deductionText(cents: number, currency: Currency = DEFAULT_CURRENCY): string {
  return cents > 0 ? `−${moneyText(cents, currency)}` : "—";
}

/** The sign the viewer's locale writes the currency with ("$", "€", "CA$"), for a price field's adornment. */
export function currencySymbol(currency: Currency, locale = viewerLocale()): string {
  return (
    format(currency, locale)
      .formatToParts(0)
      .find((p) => p.type === "currency")?.value ?? currency
  );
}

/** A price the expert typed, in the currency's major units ("127.5"), as minor units; null when it is not a number. */
export function centsOfTyped(typed: string, currency: Currency = DEFAULT_CURRENCY): number | null {
  const amount = Number(typed);
  if (typed.trim() === "" || !Number.isFinite(amount)) return null;
  return Math.round(amount * minorUnitsOf(currency));
}

/** Basis points as the fee is named to people: 1500 -> "15 %", 1250 -> "12.5 %". */
export function percentText(basisPoints: number, locale = viewerLocale()): string {
  return `${(basisPoints / 100).toLocaleString(locale, { maximumFractionDigits: 2 })} %`;
}

/** The currency a reply's amounts are in: its own, or (replies and records from before issue 29 carry none) US dollars. */
export function currencyOf(reply: object): Currency {
  const given = (reply as { currency?: unknown }).currency;
  return (CURRENCIES as readonly unknown[]).includes(given) ? (given as Currency) : DEFAULT_CURRENCY;
}
