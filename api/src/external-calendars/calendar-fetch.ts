import { lookup as resolveName, type LookupAddress } from "node:dns";
import http, { type IncomingHttpHeaders, type IncomingMessage } from "node:http";
import https from "node:https";
import { BlockList, isIP, type LookupFunction } from "node:net";
import { createBrotliDecompress, createGunzip, createInflate } from "node:zlib";
import type { Transform } from "node:stream";

// Reading an expert's calendar (issue 32): the address is theirs to type, the server does the
// fetching, so every request and every redirect hop may only reach a public https server. The name
// is checked inside the connection's own DNS lookup, so the address checked is the one connected
// to (a second, different answer from a rebinding DNS server never gets a chance). The whole read,
// redirects and body included, has one deadline and one size cap. URLs carry secrets (a secret iCal
// address, a CalDAV path): none is logged or put in an error message.

export type CalendarFetchPolicy = {
  /** "host:port" pairs that may be fetched over plain http AND may resolve to private/loopback addresses (tests only; from configuration). */
  allowedPlainHosts: readonly string[];
  /** CALENDAR_FETCH_MAX_BYTES from @booking/contracts, counted after decompression. */
  maxBytes: number;
  /** CALENDAR_FETCH_TIMEOUT_MS from @booking/contracts: connecting to the last byte, redirects included. */
  timeoutMs: number;
  /** Redirects followed before the read is given up; default 3. */
  maxRedirects?: number;
};

export type CalendarFetchRefusal =
  | "calendar_url_invalid"
  | "calendar_address_not_https"
  | "calendar_address_refused"
  | "calendar_too_big"
  | "calendar_too_slow"
  | "calendar_unreachable";

/** Why a calendar read was refused or failed: `code` is an error of the catalogue; `detail` is a safe word for the logs (an errno code), never a URL. */
export class CalendarFetchRefused extends Error {
  constructor(
    readonly code: CalendarFetchRefusal,
    readonly detail?: string,
  ) {
    super(detail ? `${code} (${detail})` : code);
    this.name = "CalendarFetchRefused";
  }
}

const DEFAULT_MAX_REDIRECTS = 3;
const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);
/** Statuses whose Response may not have a body (the Response constructor throws otherwise). */
const BODILESS_STATUSES = new Set([204, 205, 304]);
/** Headers that carry the caller's credentials: never sent on to another origin. */
const CREDENTIAL_HEADERS = ["authorization", "cookie", "proxy-authorization"];

// ---- Which addresses a calendar may live at ---------------------------------------------------

/** IPv4 ranges that are not the public internet (RFC 6890 and friends). */
const PRIVATE_IPV4: readonly (readonly [string, number])[] = [
  ["0.0.0.0", 8], // "this network", 0.0.0.0 reaches the local host
  ["10.0.0.0", 8],
  ["100.64.0.0", 10], // carrier-grade NAT; also Alibaba's metadata address 100.100.100.200
  ["127.0.0.0", 8],
  ["169.254.0.0", 16], // link-local, holds the cloud metadata address 169.254.169.254
  ["172.16.0.0", 12],
  ["192.0.0.0", 24],
  ["192.0.2.0", 24],
  ["192.168.0.0", 16],
  ["198.18.0.0", 15],
  ["198.51.100.0", 24],
  ["203.0.113.0", 24],
  ["224.0.0.0", 4], // multicast
  ["240.0.0.0", 4], // reserved, and the broadcast address
];

/** IPv6 ranges that are not the public internet; IPv4-mapped addresses are checked against the IPv4 ranges by BlockList itself. */
const PRIVATE_IPV6: readonly (readonly [string, number])[] = [
  ["::", 96], // unspecified, loopback and the deprecated IPv4-compatible addresses
  ["64:ff9b:1::", 48], // local-use NAT64
  ["100::", 64], // discard
  ["2001::", 32], // Teredo: tunnels to an address that cannot be checked
  ["2001:db8::", 32],
  ["2002::", 16], // 6to4: tunnels to an embedded IPv4 address
  ["fc00::", 7], // unique-local, holds AWS's IPv6 metadata address fd00:ec2::254
  ["fe80::", 10], // link-local
  ["fec0::", 10], // the old site-local
  ["ff00::", 8], // multicast
];

const privateAddresses = new BlockList();
for (const [network, prefix] of PRIVATE_IPV4) {
  privateAddresses.addSubnet(network, prefix, "ipv4");
  // NAT64 embeds the IPv4 address in the last 32 bits: a private one stays private through it.
  privateAddresses.addSubnet(`64:ff9b::${network}`, 96 + prefix, "ipv6");
}
for (const [network, prefix] of PRIVATE_IPV6) privateAddresses.addSubnet(network, prefix, "ipv6");

/** Whether an IP address is on the public internet, so a calendar may be read from it. */
export function isPublicAddress(address: string): boolean {
  const version = isIP(address);
  if (version === 0) return false;
  return !privateAddresses.check(address, version === 4 ? "ipv4" : "ipv6");
}

/** The DNS lookup of every connection to a host that is not allowed: each address the name resolves to must be public. */
const lookupPublicOnly: LookupFunction = (hostname, options, callback) => {
  resolveName(hostname, { ...options, all: true }, (error, addresses: LookupAddress[]) => {
    if (error) return callback(error, "", 0);
    const first = addresses[0];
    // Refused when any answer is private: a name that mixes public and private answers is not a calendar server.
    if (!first || addresses.some((found) => !isPublicAddress(found.address))) {
      return callback(new CalendarFetchRefused("calendar_address_refused"), "", 0);
    }
    if (options.all) callback(null, addresses);
    else callback(null, first.address, first.family);
  });
};

// ---- One read: the address, the hops, the body ------------------------------------------------

type Hop = { url: URL; method: string; headers: Headers; body: Buffer | undefined };
type Answer = { status: number; headers: IncomingHttpHeaders; rawHeaders: string[]; body: Buffer | null };

/** A fetch-compatible function that enforces the policy on every request and every redirect hop. */
export function calendarFetch(policy: CalendarFetchPolicy): typeof globalThis.fetch {
  const allowed = new Set(policy.allowedPlainHosts.map((host) => host.toLowerCase()));
  const maxRedirects = policy.maxRedirects ?? DEFAULT_MAX_REDIRECTS;

  return async (input, init) => {
    const request = input instanceof Request ? input : undefined;
    let hop: Hop = {
      url: parseAddress(request ? request.url : input instanceof URL ? input.href : String(input)),
      method: (init?.method ?? request?.method ?? "GET").toUpperCase(),
      headers: new Headers(init?.headers ?? request?.headers),
      body: undefined,
    };
    const body = init?.body ?? (request?.body ? await request.arrayBuffer() : undefined);
    if (body !== undefined && body !== null) {
      // Response encodes every kind of body fetch accepts (string, bytes, form, stream) the way fetch would.
      const encoded = new Response(body);
      const contentType = encoded.headers.get("content-type");
      if (contentType && !hop.headers.has("content-type")) hop.headers.set("content-type", contentType);
      hop.body = Buffer.from(await encoded.arrayBuffer());
    }
    if (!hop.headers.has("accept-encoding")) hop.headers.set("accept-encoding", "gzip, deflate, br");

    // One deadline for the whole read; the caller's own signal still cancels it as fetch would.
    const deadline = new AbortController();
    const timer = setTimeout(() => deadline.abort(new CalendarFetchRefused("calendar_too_slow")), policy.timeoutMs);
    const signal = init?.signal ? AbortSignal.any([deadline.signal, init.signal]) : deadline.signal;
    try {
      for (let redirects = 0; ; redirects++) {
        const hostAllowed = checkAddress(hop.url, allowed);
        const followRedirects = (init?.redirect ?? request?.redirect) !== "manual";
        const answer = await exchange(hop, { hostAllowed, followRedirects, maxBytes: policy.maxBytes, signal });
        const location = answer.headers.location;
        if (!followRedirects || !REDIRECT_STATUSES.has(answer.status) || location === undefined) return toResponse(answer, hop.url);
        if (redirects >= maxRedirects) throw new CalendarFetchRefused("calendar_unreachable", "too_many_redirects");
        hop = nextHop(hop, answer.status, location);
      }
    } finally {
      clearTimeout(timer);
    }
  };
}

/** The URL of a hop, or the refusal of a text that is not one. */
function parseAddress(text: string, base?: URL): URL {
  let url: URL;
  try {
    url = new URL(text, base);
  } catch {
    throw new CalendarFetchRefused("calendar_url_invalid");
  }
  // fetch refuses credentials in the address too; a calendar's password goes in the CalDAV form.
  if (url.username || url.password) throw new CalendarFetchRefused("calendar_url_invalid");
  return url;
}

/** Refuses an address that may not be read; returns whether its host:port is allowed by configuration (then any address goes). */
function checkAddress(url: URL, allowed: ReadonlySet<string>): boolean {
  if (url.protocol !== "https:" && url.protocol !== "http:") throw new CalendarFetchRefused("calendar_address_not_https");
  const hostAllowed = allowed.has(`${url.hostname}:${url.port || (url.protocol === "https:" ? "443" : "80")}`);
  if (hostAllowed) return true;
  // A literal IP connects without a lookup, so it is checked here; it is refused before the scheme
  // because "private network" is the truer answer for http://127.0.0.1.
  const literal = bareHostname(url);
  if (isIP(literal) !== 0 && !isPublicAddress(literal)) throw new CalendarFetchRefused("calendar_address_refused");
  if (url.protocol !== "https:") throw new CalendarFetchRefused("calendar_address_not_https");
  return false;
}

/** The host name as the socket wants it: an IPv6 literal without its URL brackets. */
function bareHostname(url: URL): string {
  return url.hostname.startsWith("[") ? url.hostname.slice(1, -1) : url.hostname;
}

/** The request after a redirect, as fetch makes it: 303 (and 301/302 after POST) turns into a bodiless GET; credentials stay with their origin. */
function nextHop(hop: Hop, status: number, location: string): Hop {
  const url = parseAddress(location, hop.url);
  const headers = new Headers(hop.headers);
  if (url.origin !== hop.url.origin) for (const name of CREDENTIAL_HEADERS) headers.delete(name);
  const becomesGet =
    (status === 303 && hop.method !== "GET" && hop.method !== "HEAD") || ((status === 301 || status === 302) && hop.method === "POST");
  if (!becomesGet) return { url, method: hop.method, headers, body: hop.body };
  for (const name of ["content-type", "content-length", "content-encoding", "content-language", "content-location"]) headers.delete(name);
  return { url, method: "GET", headers, body: undefined };
}

type ExchangeLimits = { hostAllowed: boolean; followRedirects: boolean; maxBytes: number; signal: AbortSignal };

/** One request and its answer, the body read under the size cap and decompressed; a redirect that will be followed is answered without its body. */
function exchange(hop: Hop, limits: ExchangeLimits): Promise<Answer> {
  const { signal, maxBytes } = limits;
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise<Answer>((resolve, reject) => {
    let settled = false;
    let response: IncomingMessage | undefined;
    let decoder: Transform | undefined;
    const settle = (outcome: () => void) => {
      if (settled) return;
      settled = true;
      signal.removeEventListener("abort", onAbort);
      outcome();
    };
    // Any failure ends the connection: a refused body is not read to its end, a stalled server is not waited for.
    const fail = (error: unknown) =>
      settle(() => {
        decoder?.destroy();
        response?.destroy();
        outgoing.destroy();
        reject(error);
      });
    const onAbort = () => fail(signal.reason);
    const headers: Record<string, string> = Object.fromEntries(hop.headers);
    // The connection's own headers are node's to write: a caller's Host could not change where it connects, only confuse the server.
    for (const name of ["host", "connection", "content-length", "transfer-encoding"]) delete headers[name];
    if (hop.body) headers["content-length"] = String(hop.body.length);

    const outgoing = (hop.url.protocol === "https:" ? https : http).request(
      {
        protocol: hop.url.protocol,
        host: bareHostname(hop.url),
        port: hop.url.port || undefined,
        path: `${hop.url.pathname}${hop.url.search}`,
        method: hop.method,
        headers,
        // A fresh connection per request: a pooled socket would skip the lookup that checks its address.
        agent: false,
        ...(limits.hostAllowed ? {} : { lookup: lookupPublicOnly }),
      },
      (incoming) => {
        response = incoming;
        const status = incoming.statusCode ?? 0;
        const answer = { status, headers: incoming.headers, rawHeaders: incoming.rawHeaders };
        if (limits.followRedirects && REDIRECT_STATUSES.has(status) && incoming.headers.location !== undefined) {
          settle(() => {
            incoming.destroy();
            resolve({ ...answer, body: null });
          });
          return;
        }
        if (Number(incoming.headers["content-length"] ?? 0) > maxBytes) return fail(new CalendarFetchRefused("calendar_too_big"));
        decoder = decoderFor(incoming.headers["content-encoding"]);
        const source = decoder ? incoming.pipe(decoder) : incoming;
        const chunks: Buffer[] = [];
        let received = 0;
        source.on("data", (chunk: Buffer) => {
          received += chunk.length;
          if (received > maxBytes) return fail(new CalendarFetchRefused("calendar_too_big"));
          chunks.push(chunk);
        });
        source.on("end", () => settle(() => resolve({ ...answer, body: Buffer.concat(chunks) })));
        decoder?.on("error", () => fail(new CalendarFetchRefused("calendar_unreachable", "bad_encoding")));
        incoming.on("error", (error) => fail(unreachable(error)));
        // The server closed the connection before the body's end.
        incoming.on("close", () => {
          if (!incoming.complete) fail(new CalendarFetchRefused("calendar_unreachable", "connection_closed"));
        });
      },
    );
    outgoing.on("error", (error) => fail(unreachable(error)));
    signal.addEventListener("abort", onAbort, { once: true });
    outgoing.end(hop.body);
  });
}

/** Decompressors for the encodings asked for; another encoding is passed on as it came. */
const DECODERS: Readonly<Record<string, () => Transform>> = {
  gzip: createGunzip,
  "x-gzip": createGunzip,
  deflate: createInflate,
  br: createBrotliDecompress,
};

function decoderFor(encoding: string | undefined): Transform | undefined {
  return DECODERS[encoding?.trim().toLowerCase() ?? ""]?.();
}

/** A network failure as the expert sees it; a refusal from the lookup stays what it is. The errno code is kept (never the message: it names the host). */
function unreachable(error: unknown): CalendarFetchRefused {
  if (error instanceof CalendarFetchRefused) return error;
  const code = error instanceof Error && "code" in error && typeof error.code === "string" ? error.code : undefined;
  return new CalendarFetchRefused("calendar_unreachable", code);
}

/** The answer as a standard Response; a decompressed body no longer has its encoding or length. */
function toResponse(answer: Answer, url: URL): Response {
  if (answer.status < 200 || answer.status > 599) throw new CalendarFetchRefused("calendar_unreachable", "bad_status");
  const decoded = (answer.headers["content-encoding"]?.trim().toLowerCase() ?? "") in DECODERS;
  const headers = new Headers();
  for (let i = 0; i + 1 < answer.rawHeaders.length; i += 2) {
    const name = answer.rawHeaders[i]!;
    if (decoded && /^content-(encoding|length)$/i.test(name)) continue;
    headers.append(name, answer.rawHeaders[i + 1]!);
  }
  const body = BODILESS_STATUSES.has(answer.status) || answer.body === null ? null : new Uint8Array(answer.body);
  const response = new Response(body, { status: answer.status, headers });
  // fetch's Response says where it came from (tsdav reads it); the constructor cannot set it.
  Object.defineProperty(response, "url", { value: url.href });
  return response;
}
