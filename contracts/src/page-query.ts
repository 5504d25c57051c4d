import { z } from "zod";

// The two query fields of every list read a page at a time by cursor (issue 34.5). Each list keeps its
// own catalogue codes, bounds and words, so a client's bad cursor is named for the list it asked.

/** What a paged list says of its cursor and its page size, in its own words. */
export type PageQueryWords = {
  /** The catalogue code of a cursor that is not one (e.g. `bookings_cursor_invalid`). */
  cursorError: string;
  /** The catalogue code of a page size out of bounds (e.g. `bookings_page_size_invalid`). */
  sizeError: string;
  /** The most items one page holds. */
  max: number;
  /** Items per page when the client does not say. */
  defaultSize: number;
  /** What the list holds, as the page size's description opens (e.g. "Bookings"). */
  items: string;
  /** Where else the `Link` header comes from, when not only this call (e.g. "on this call or the profile"). */
  linkedFrom?: string;
  /** What a cursor's page holds (e.g. "the page after it"). */
  after: string;
  /** What the client gets without a cursor (e.g. "the first page"). */
  first: string;
};

/**
 * `before`, the cursor a `Link: <…>; rel="next"` header gave, and `limit`, the items per page (1 to `max`): both optional,
 * both described for the OpenAPI document, every refusal with the list's own code.
 */
export function pageQueryFields(words: PageQueryWords) {
  const { cursorError, sizeError, max, defaultSize, items, linkedFrom, after, first } = words;
  const gave = linkedFrom === undefined ? "" : ` (${linkedFrom})`;
  return {
    before: z
      .string({ error: cursorError })
      .min(1, { error: cursorError })
      .max(200, { error: cursorError })
      .optional()
      .describe(`The cursor a \`Link: <…>; rel="next"\` header gave${gave}: ${after}. Absent: ${first}.`),
    limit: z.coerce
      .number({ error: sizeError })
      .int({ error: sizeError })
      .min(1, { error: sizeError })
      .max(max, { error: sizeError })
      .optional()
      .describe(`${items} per page, 1 to ${max}; ${defaultSize} when absent.`),
  };
}
