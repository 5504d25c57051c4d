import { useRecordContext } from "react-admin";
import { CURRENCIES, type Currency } from "@booking/contracts";
import { adminReader } from "../fields/date-time-field.tsx";

// Money in the console's money screens (issue 29.8): whole minor units of one ISO 4217 currency,
// written with that currency in the admin's locale. Amounts of different currencies are never added.

/** A currency code the product knows; anything else is not written as money. */
export const isCurrency = (value: unknown): value is Currency =>
  typeof value === "string" && (CURRENCIES as readonly string[]).includes(value);

const formats = new Map<string, Intl.NumberFormat>();

function formatOf(currency: Currency): Intl.NumberFormat {
  const locale = adminReader().locale;
  const key = `${locale} ${currency}`;
  let format = formats.get(key);
  if (!format) {
    format = new Intl.NumberFormat(locale, { style: "currency", currency, currencyDisplay: "code" });
    formats.set(key, format);
  }
  return format;
}

/** Minor units of `currency` as the admin reads money, with the currency's code: 12750 USD → "USD 127.50". */
export function formatMoney(cents: number, currency: Currency): string {
  const format = formatOf(currency);
  const digits = format.resolvedOptions().maximumFractionDigits ?? 2;
  return format.format(cents / 10 ** digits);
}

/** An amount of the record in the record's currency (`currency` unless told); "—" when either is missing. */
export function CurrencyMoneyField({ source, currencySource = "currency" }: { source: string; currencySource?: string; label?: string }) {
  const record = useRecordContext();
  const cents: unknown = record?.[source];
  const currency: unknown = record?.[currencySource];
  if (typeof cents !== "number" || !isCurrency(currency)) return <span>—</span>;
  return <span data-currency={currency}>{formatMoney(cents, currency)}</span>;
}
