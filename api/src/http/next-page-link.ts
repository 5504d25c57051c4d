// The `Link: <…>; rel="next"` reply header of every list read a page at a time by cursor (issue 34.5),
// written once so each list names its next page alike: the address it was asked at, with the cursor
// after its last item and the page size asked (or the list's default) set in its query.

/**
 * The `Link` header value naming the next page: `address` (a path, and any query to keep, such as a listing's filters)
 * with its `before` set to `cursor` and its `limit` to `limit`.
 */
export function nextPageLink(address: string, cursor: string, limit: number): string {
  // A base only to parse a path; it never reaches the header.
  const next = new URL(address, "http://api.invalid");
  next.searchParams.set("before", cursor);
  next.searchParams.set("limit", String(limit));
  return `<${next.pathname}${next.search}>; rel="next"`;
}
