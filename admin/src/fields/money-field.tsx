import { useRecordContext } from "react-admin";

const dollars = new Intl.NumberFormat("en-US", { style: "currency", currency: "USD" });

/** Cents as dollars, e.g. 15000 → $150.00. */
export const formatCents = (cents: number): string => dollars.format(cents / 100);

/** A whole-cents amount of the record, shown in dollars. */
export function MoneyField({ source }: { source: string; label?: string; sortable?: boolean }) {
  const record = useRecordContext();
  const cents: unknown = record?.[source];
  return <span>{typeof cents === "number" ? formatCents(cents) : ""}</span>;
}
