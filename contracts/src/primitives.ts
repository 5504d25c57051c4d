import { z } from "zod";
import { SESSION_LENGTHS_MINUTES, WEEKDAYS } from "./constants.ts";

// Zod issues carry a catalogue code as their message, so the boundary can answer with the
// catalogue's user-facing text (see parse.ts).

/**
 * Text Postgres can store and a person can have typed: no NUL (Postgres refuses it in text) and
 * no lone surrogate (half of a character, which no keyboard makes). RTL marks and zero-width
 * characters are text and pass.
 */
// eslint-disable-next-line no-control-regex -- NUL is exactly what this looks for
const UNSTORABLE_TEXT = /\u0000|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

export const isStorableText = (text: string): boolean => !UNSTORABLE_TEXT.test(text);

/**
 * Whether any string in untrusted input (a parsed body, query or parameters, keys included) is
 * not storable text. Walked without recursion, as bodies may nest deeply.
 */
export function holdsUnstorableText(input: unknown): boolean {
  const pending: unknown[] = [input];
  while (pending.length) {
    const value = pending.pop();
    if (typeof value === "string") {
      if (!isStorableText(value)) return true;
    } else if (Array.isArray(value)) {
      for (const item of value) pending.push(item);
    } else if (value && typeof value === "object") {
      for (const [key, child] of Object.entries(value)) {
        if (!isStorableText(key)) return true;
        pending.push(child);
      }
    }
  }
  return false;
}

/**
 * Control characters (C0, DEL, C1) and the Unicode line and paragraph separators: a calendar, a
 * mail header or a loose file reader may take any of them for a line end (issue 26 item 2). One-line
 * text (titles, names, tags) holds none of them, tab included; multi-line text (a bio, a
 * description, prep answers) keeps line feeds, CRLF and tabs.
 */
// eslint-disable-next-line no-control-regex -- control characters are exactly what these look for
const NOT_ONE_LINE = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/;
// eslint-disable-next-line no-control-regex -- control characters are exactly what these look for
const NOT_MULTI_LINE = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\u2028\u2029]|\r(?!\n)/;

export const isOneLineText = (text: string): boolean => !NOT_ONE_LINE.test(text);
export const isMultiLineText = (text: string): boolean => !NOT_MULTI_LINE.test(text);

const CONTROL_CHARACTERS = { error: "text_has_control_characters" } as const;
/** `schema`, refusing control characters and line separators (`text_has_control_characters`): titles, names, tags. */
export const oneLine = <S extends z.ZodString>(schema: S): S => schema.refine(isOneLineText, CONTROL_CHARACTERS);
/** `schema`, refusing control characters but line feeds, CRLF and tabs: a bio, a description, an answer. */
export const multiLine = <S extends z.ZodString>(schema: S): S => schema.refine(isMultiLineText, CONTROL_CHARACTERS);

/** A person's first or last name as typed (sign-up, rename): trimmed, at most 100 characters, one line. */
export const PersonName = oneLine(z.string({ error: "invalid_request" }).trim().max(100, { error: "invalid_request" }));

export const Id = z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, { error: "invalid_request" });

export function isValidTimezone(zone: string): boolean {
  try {
    // Throws RangeError for anything that is not an IANA zone the runtime knows.
    new Intl.DateTimeFormat("en-US", { timeZone: zone });
    return zone.includes("/") || zone === "UTC";
  } catch {
    return false;
  }
}

export const Timezone = z
  .string({ error: "schedule_timezone_invalid" })
  .max(64, { error: "schedule_timezone_invalid" })
  .refine(isValidTimezone, { error: "schedule_timezone_invalid" });

/** A local wall-clock time on the half-hour grid: one of 48 options, 00:00 to 23:30. */
export const LocalTime = z
  .string({ error: "schedule_time_invalid" })
  .regex(/^([01]\d|2[0-3]):(00|30)$/, { error: "schedule_time_invalid" });

export const Weekday = z.enum(WEEKDAYS, { error: "schedule_time_invalid" });

/** An instant with an explicit offset, normalised to UTC ISO (`...Z`). */
export const Instant = z
  .string({ error: "scheduled_time_invalid" })
  .max(40, { error: "scheduled_time_invalid" })
  .pipe(z.iso.datetime({ offset: true, error: "scheduled_time_invalid" }))
  .transform((s) => new Date(s).toISOString());

export const SessionLength = z
  .number({ error: "session_length_invalid" })
  .refine((n): n is (typeof SESSION_LENGTHS_MINUTES)[number] => (SESSION_LENGTHS_MINUTES as readonly number[]).includes(n), {
    error: "session_length_invalid",
  });

export const PriceCents = z
  .number({ error: "session_price_invalid" })
  .int({ error: "session_price_invalid" })
  .min(0, { error: "session_price_invalid" })
  .max(100_000_000, { error: "session_price_invalid" });

export const Actor = z.object({
  userId: Id,
  role: z.enum(["creator", "expert", "admin", "system"]),
});
export type Actor = z.infer<typeof Actor>;

export function minutesOfDay(hhmm: string): number {
  const [h, m] = hhmm.split(":").map(Number);
  return (h ?? 0) * 60 + (m ?? 0);
}
