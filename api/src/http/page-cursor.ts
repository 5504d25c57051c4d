import type { ErrorCode } from "@booking/contracts";
import { refuse } from "./errors.ts";

// The cursor of the lists paged by a time and a booking id (bookings, earnings, reviews; issue 34.5):
// the last item's two keys (keyset, not a count), base64url so the client sends it back unread.

/** A list's cursor: its time key is `time` (e.g. "scheduledTime"), its tie-break the booking id. */
export type BookingTimeCursor<Time extends string> = Record<Time, string> & { bookingId: string };

/**
 * The text of a list's cursor, and the cursor a text names (null: none given, the first page); a text
 * that names no time and booking id is refused with the list's own `invalid` code.
 */
export function bookingTimeCursor<Time extends string>(time: Time, invalid: ErrorCode) {
  type Cursor = BookingTimeCursor<Time>;
  return {
    text: (c: Cursor): string => Buffer.from(`${c[time]}|${c.bookingId}`).toString("base64url"),
    of(text: string | undefined): Cursor | null {
      if (text === undefined) return null;
      const [at, bookingId, ...rest] = Buffer.from(text, "base64url").toString("utf8").split("|");
      if (!at || !bookingId || rest.length || Number.isNaN(Date.parse(at))) refuse(invalid);
      // A computed key widens to a string index; the one key it sets is `time`.
      return { [time]: at, bookingId } as Cursor;
    },
  };
}
