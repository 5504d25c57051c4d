import { useRecordContext } from "react-admin";
import { momentText, readableLocale, type Reader } from "@booking/contracts";

// The console writes every moment one way (issue 27.15): the admin's locale with weekday and month name, and the zone
// named, since an admin reads times from experts and creators all over the world.

/** The admin reading the console: their browser's language and zone. */
export const adminReader = (): Reader => ({
  locale: readableLocale(navigator.language),
  zone: Intl.DateTimeFormat().resolvedOptions().timeZone || "UTC",
});

/** "Wednesday, 2 December 2026, 14:00 (Europe/London, GMT)" where the admin is; `seconds` for audit trails. */
export const consoleMoment = (iso: string, precision: "minutes" | "seconds" = "minutes"): string =>
  momentText(iso, adminReader(), precision);

/** A moment of the record, with its date, time and zone (the admin's locale and zone); "—" when there is none. */
export function DateTimeField({ source }: { source: string; label?: string; sortable?: boolean }) {
  const record = useRecordContext();
  const value: unknown = record?.[source];
  return <span>{typeof value === "string" && value ? consoleMoment(value) : "—"}</span>;
}
