import { readableLocale } from "@booking/contracts";

// Its own file, light (no luxon): the landing page's first load writes prices with it (money.ts).

/** The viewer's locale (the browser's language): it decides the words and order of every date and amount the app writes. */
export function viewerLocale(): string {
  return readableLocale(typeof navigator === "undefined" ? undefined : navigator.language);
}
