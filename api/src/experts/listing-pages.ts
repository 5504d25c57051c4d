import { LISTING_PAGE_DEFAULT, type ExpertListItem } from "@booking/contracts";
import { refuse } from "../http/index.ts";

// Pages of the experts listing (issue 34.5). The engine ranks every matching expert (recommended,
// price, soonest...), and the whole ranking is cached per query, so a page is a stretch of that
// ranking. Its cursor names the last expert shown, and the next page starts right after them
// wherever they stand now: keyset on the listing's own order, not a count, so an expert joining
// above does not push a card onto the next page twice. A cursor whose expert has left the listing
// is refused with the catalogue's message rather than answered with a guess.

/** A page's serialised body, and the cursor of the page after it (null: this is the last). */
export type ListingPage = { body: Buffer; next: string | null };

/** Pages kept per cached listing: enough for everyone scrolling one query, bounded against made-up page sizes. */
const PAGES_KEPT = 64;

const cursorText = (expertId: string) => Buffer.from(`expert|${expertId}`).toString("base64url");

/** The expert a cursor names (its text is checked here; whether they are still listed, by the caller). */
function anchorOf(text: string): string {
  const [kind, expertId, ...rest] = Buffer.from(text, "base64url").toString("utf8").split("|");
  if (kind !== "expert" || !expertId || rest.length) refuse("listing_cursor_invalid");
  return expertId;
}

// Per cached listing body: its cards, and the pages cut from it, so a page is serialised (and
// gzipped, by identity) once per listing state, and dropped with it.
const cut = new WeakMap<Buffer, { items: ExpertListItem[]; pages: Map<string, ListingPage> }>();

/** The page of `listing` (the serialised ranking of ExpertListItem cards) after the cursor `before`, `limit` experts long. */
export function listingPage(listing: Buffer, page: { before?: string | undefined; limit?: number | undefined }): ListingPage {
  const limit = page.limit ?? LISTING_PAGE_DEFAULT;
  const anchor = page.before === undefined ? null : anchorOf(page.before);
  let kept = cut.get(listing);
  if (!kept) cut.set(listing, (kept = { items: JSON.parse(listing.toString("utf8")) as ExpertListItem[], pages: new Map() }));
  const { items, pages } = kept;
  // The whole listing on one page is the cached body itself.
  if (anchor === null && items.length <= limit) return { body: listing, next: null };
  const key = `${page.before ?? ""}&${limit}`;
  const known = pages.get(key);
  if (known) return known;
  const start = anchor === null ? 0 : items.findIndex((e) => e.id === anchor) + 1;
  if (start === 0 && anchor !== null) refuse("listing_cursor_invalid");
  const shown = items.slice(start, start + limit);
  const last = shown.at(-1);
  const made = { body: Buffer.from(JSON.stringify(shown)), next: start + limit < items.length && last ? cursorText(last.id) : null };
  if (pages.size >= PAGES_KEPT) pages.delete(pages.keys().next().value!);
  pages.set(key, made);
  return made;
}
