import { createServer, type IncomingHttpHeaders, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { brotliCompressSync, gzipSync } from "node:zlib";
import { CALENDAR_FETCH_MAX_BYTES } from "@booking/contracts";
import { afterEach, describe, expect, it } from "vitest";
import {
  calendarFetch,
  CalendarFetchRefused,
  isPublicAddress,
  type CalendarFetchPolicy,
} from "../src/external-calendars/calendar-fetch.ts";

// Reading an expert's calendar from an address they typed (issue 32): only public https servers,
// each redirect hop checked, one size cap and one deadline. The calendar servers here are plain
// http on 127.0.0.1, reachable only because the policy allows their exact host:port.

type Seen = { method: string; path: string; headers: IncomingHttpHeaders; body: string };
type CalendarServer = { host: string; url: (path: string) => string; seen: Seen[]; connections: () => number; closedSockets: () => number };

const servers: Server[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    await new Promise((done) => server.close(done));
  }
});

async function calendarServer(
  answer: (request: Seen, response: ServerResponse) => void = (_, res) => res.end("BEGIN:VCALENDAR"),
): Promise<CalendarServer> {
  const seen: Seen[] = [];
  let connections = 0;
  let closedSockets = 0;
  const server = createServer((req: IncomingMessage, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const request = { method: req.method ?? "", path: req.url ?? "", headers: req.headers, body: Buffer.concat(chunks).toString() };
      seen.push(request);
      answer(request, res);
    });
  });
  server.on("connection", (socket) => {
    connections++;
    socket.on("close", () => closedSockets++);
  });
  servers.push(server);
  await new Promise<void>((done) => server.listen(0, "127.0.0.1", done));
  const { port } = server.address() as AddressInfo;
  return {
    host: `127.0.0.1:${port}`,
    url: (path) => `http://127.0.0.1:${port}${path}`,
    seen,
    connections: () => connections,
    closedSockets: () => closedSockets,
  };
}

function policy(allowedPlainHosts: string[], overrides: Partial<CalendarFetchPolicy> = {}): CalendarFetchPolicy {
  return { allowedPlainHosts, maxBytes: CALENDAR_FETCH_MAX_BYTES, timeoutMs: 5_000, ...overrides };
}

/** The refusal a read ended with (fails the test when it was not refused). */
async function refusalOf(read: Promise<unknown>): Promise<CalendarFetchRefused> {
  const outcome = await read.then(
    () => undefined,
    (error: unknown) => error,
  );
  if (!(outcome instanceof CalendarFetchRefused)) throw new Error(`expected a refusal, got ${String(outcome)}`);
  return outcome;
}

/** Milliseconds a read took to be refused, and its code. */
async function timedRefusal(read: () => Promise<unknown>): Promise<{ code: string; ms: number }> {
  const started = performance.now();
  const refused = await refusalOf(read());
  return { code: refused.code, ms: performance.now() - started };
}

const SIX_MB = 6 * 1024 * 1024;

describe("which addresses a calendar is read from", () => {
  it.each([
    ["not an address", "calendar_url_invalid"],
    ["https://user:secret@calendar.example.com/cal.ics", "calendar_url_invalid"],
    ["ftp://calendar.example.com/cal.ics", "calendar_address_not_https"],
    ["file:///etc/passwd", "calendar_address_not_https"],
    ["data:text/calendar,BEGIN:VCALENDAR", "calendar_address_not_https"],
    ["http://calendar.example.com/secret-token/cal.ics", "calendar_address_not_https"],
  ])("refuses %s as %s, without the address in the error", async (address, code) => {
    const refused = await refusalOf(calendarFetch(policy([]))(address));
    expect(refused.code).toBe(code);
    expect(refused.message).not.toMatch(/secret|example|etc/);
  });

  it("reads plain http only from a host:port the configuration allows, by that exact name", async () => {
    const calendar = await calendarServer();
    const port = calendar.host.split(":")[1];
    const read = calendarFetch(policy([calendar.host]));
    expect((await refusalOf(read(`http://localhost:${port}/cal.ics`))).code).toBe("calendar_address_not_https");
    expect(calendar.connections()).toBe(0);
    expect(await (await read(calendar.url("/cal.ics"))).text()).toBe("BEGIN:VCALENDAR");
  });

  it.each([
    "https://127.0.0.1/",
    "https://10.0.0.1/cal.ics",
    "https://172.16.4.2/",
    "https://192.168.1.1/",
    "https://169.254.169.254/latest/meta-data/",
    "https://100.64.0.1/",
    "https://100.100.100.200/",
    "https://0.0.0.0/",
    "https://224.0.0.1/",
    "https://2130706433/", // 127.0.0.1 as one number
    "https://0x7f.1/",
    "https://[::1]/",
    "https://[::]/",
    "https://[::ffff:127.0.0.1]/",
    "https://[::ffff:a9fe:a9fe]/", // 169.254.169.254, IPv4-mapped
    "https://[fe80::1]/",
    "https://[fd00:ec2::254]/",
    "https://[ff02::1]/",
    "https://[64:ff9b::a00:1]/", // 10.0.0.1 through NAT64
    "http://10.0.0.1/",
  ])("refuses the private address %s before connecting", async (address) => {
    // Were it connected to, 10.0.0.1 would stall until the deadline and 127.0.0.1:443 would be unreachable.
    const { code, ms } = await timedRefusal(() => calendarFetch(policy([]))(address));
    expect(code).toBe("calendar_address_refused");
    expect(ms).toBeLessThan(200);
  });

  it("refuses a private literal address even on a port that answers", async () => {
    const calendar = await calendarServer();
    const port = calendar.host.split(":")[1];
    expect((await refusalOf(calendarFetch(policy([`localhost:${port}`]))(calendar.url("/")))).code).toBe("calendar_address_refused");
    expect(calendar.connections()).toBe(0);
  });

  it("refuses a name that resolves to a private address, checked in the connection's lookup", async () => {
    const calendar = await calendarServer();
    const port = calendar.host.split(":")[1];
    // https, so the scheme is fine: only the address localhost resolves to (127.0.0.1) refuses it.
    const refused = await refusalOf(calendarFetch(policy([calendar.host]))(`https://localhost:${port}/cal.ics`));
    expect(refused.code).toBe("calendar_address_refused");
    expect(calendar.connections()).toBe(0);
  });

  it.each(["8.8.8.8", "1.1.1.1", "2606:4700:4700::1111", "::ffff:8.8.8.8", "64:ff9b::808:808"])(
    "takes %s for a public address",
    (address) => {
      expect(isPublicAddress(address)).toBe(true);
    },
  );

  it("answers an unreachable server as calendar_unreachable", async () => {
    const calendar = await calendarServer();
    servers.pop()!.close(); // the port is now closed, and still allowed
    const read = calendarFetch(policy([calendar.host]));
    expect((await refusalOf(read(calendar.url("/cal.ics")))).code).toBe("calendar_unreachable");
  });
});

describe("what a read returns", () => {
  it("returns the body, and a 304 Response when the calendar did not change", async () => {
    const calendar = await calendarServer((request, res) => {
      if (request.headers["if-none-match"] === '"v1"') return res.writeHead(304, { etag: '"v1"' }).end();
      res.writeHead(200, { "content-type": "text/calendar", etag: '"v1"' }).end("BEGIN:VCALENDAR\r\nEND:VCALENDAR\r\n");
    });
    const read = calendarFetch(policy([calendar.host]));
    const first = await read(calendar.url("/cal.ics"));
    expect(first.status).toBe(200);
    expect(first.headers.get("etag")).toBe('"v1"');
    expect(first.headers.get("content-type")).toBe("text/calendar");
    expect(await first.text()).toBe("BEGIN:VCALENDAR\r\nEND:VCALENDAR\r\n");
    const second = await read(calendar.url("/cal.ics"), {
      headers: { "If-None-Match": '"v1"', "If-Modified-Since": "Mon, 01 Jun 2026 10:00:00 GMT" },
    });
    expect(second.status).toBe(304);
    expect(second.body).toBeNull();
    expect(calendar.seen[1]!.headers["if-modified-since"]).toBe("Mon, 01 Jun 2026 10:00:00 GMT");
  });

  it.each([
    ["gzip", gzipSync],
    ["br", brotliCompressSync],
  ])("asks for and decompresses a %s body", async (encoding, compress) => {
    const text = "BEGIN:VCALENDAR\r\n" + "BEGIN:VEVENT\r\nEND:VEVENT\r\n".repeat(200) + "END:VCALENDAR\r\n";
    const calendar = await calendarServer((_, res) => res.writeHead(200, { "content-encoding": encoding }).end(compress(text)));
    const response = await calendarFetch(policy([calendar.host]))(calendar.url("/cal.ics"));
    expect(await response.text()).toBe(text);
    expect(response.headers.get("content-encoding")).toBeNull();
    expect(calendar.seen[0]!.headers["accept-encoding"]).toBe("gzip, deflate, br");
  });

  it("sends a CalDAV REPORT with its body and headers intact", async () => {
    const report = '<?xml version="1.0" encoding="utf-8"?><c:calendar-query xmlns:c="urn:ietf:params:xml:ns:caldav"/>';
    const calendar = await calendarServer((_, res) => res.writeHead(207, { "content-type": "application/xml" }).end("<d:multistatus/>"));
    const response = await calendarFetch(policy([calendar.host]))(calendar.url("/dav/calendars/ada/"), {
      method: "REPORT",
      headers: { Authorization: "Basic YWRhOnNlY3JldA==", Depth: "1", "Content-Type": "text/xml;charset=UTF-8" },
      body: report,
    });
    expect(response.status).toBe(207);
    expect(await response.text()).toBe("<d:multistatus/>");
    const seen = calendar.seen[0]!;
    expect(seen).toMatchObject({ method: "REPORT", path: "/dav/calendars/ada/", body: report });
    expect(seen.headers).toMatchObject({ authorization: "Basic YWRhOnNlY3JldA==", depth: "1", "content-type": "text/xml;charset=UTF-8" });
    expect(seen.headers["content-length"]).toBe(String(Buffer.byteLength(report)));
  });
});

describe("redirects", () => {
  it("follows a redirect on the same server, keeping the credentials", async () => {
    const calendar = await calendarServer((request, res) =>
      request.path === "/old" ? res.writeHead(301, { location: "/new" }).end() : res.end(`moved ${request.headers.authorization}`),
    );
    const response = await calendarFetch(policy([calendar.host]))(calendar.url("/old"), { headers: { authorization: "Basic YQ==" } });
    expect(await response.text()).toBe("moved Basic YQ==");
    expect(calendar.seen.map((request) => request.path)).toEqual(["/old", "/new"]);
  });

  it("does not send the credentials on to another origin", async () => {
    const other = await calendarServer((request, res) => res.end(`auth: ${request.headers.authorization ?? "none"}`));
    const calendar = await calendarServer((_, res) => res.writeHead(302, { location: other.url("/cal.ics") }).end());
    const response = await calendarFetch(policy([calendar.host, other.host]))(calendar.url("/"), {
      headers: { authorization: "Basic YQ==" },
    });
    expect(await response.text()).toBe("auth: none");
  });

  it("refuses a redirect to a loopback address it was not allowed, without reaching it", async () => {
    const inside = await calendarServer();
    const calendar = await calendarServer((_, res) => res.writeHead(302, { location: inside.url("/x") }).end());
    const refused = await refusalOf(calendarFetch(policy([calendar.host]))(calendar.url("/cal.ics")));
    expect(refused.code).toBe("calendar_address_refused");
    expect(inside.connections()).toBe(0);
    expect(calendar.seen).toHaveLength(1);
  });

  it("refuses a redirect to a name that resolves to loopback, without reaching it", async () => {
    const inside = await calendarServer();
    const port = inside.host.split(":")[1];
    const calendar = await calendarServer((_, res) => res.writeHead(307, { location: `https://localhost:${port}/x` }).end());
    const refused = await refusalOf(calendarFetch(policy([calendar.host, inside.host]))(calendar.url("/cal.ics")));
    expect(refused.code).toBe("calendar_address_refused");
    expect(inside.connections()).toBe(0);
  });

  it("follows at most maxRedirects hops", async () => {
    // /hop/n redirects to /hop/n+1 until n reaches the number in the query.
    const calendar = await calendarServer((request, res) => {
      const url = new URL(request.path, "http://x");
      const hop = Number(url.pathname.split("/")[2]);
      if (hop >= Number(url.searchParams.get("last"))) return res.end(`hop ${hop}`);
      res.writeHead(302, { location: `/hop/${hop + 1}${url.search}` }).end();
    });
    const read = calendarFetch(policy([calendar.host], { maxRedirects: 3 }));
    expect(await (await read(calendar.url("/hop/0?last=3"))).text()).toBe("hop 3");
    calendar.seen.length = 0;
    const refused = await refusalOf(read(calendar.url("/hop/0?last=99")));
    expect(refused.code).toBe("calendar_unreachable");
    expect(calendar.seen).toHaveLength(4);
  });

  it("returns the redirect itself under redirect: manual (tsdav's service discovery)", async () => {
    const calendar = await calendarServer((_, res) => res.writeHead(301, { location: "/dav/" }).end());
    const response = await calendarFetch(policy([calendar.host]))(calendar.url("/.well-known/caldav"), {
      method: "PROPFIND",
      redirect: "manual",
    });
    expect(response.status).toBe(301);
    expect(response.headers.get("location")).toBe("/dav/");
    expect(calendar.seen).toHaveLength(1);
  });
});

describe("the size cap", () => {
  it("refuses a body streamed past the cap without waiting for its end", async () => {
    // 6 MB, then the server stalls: only a read that stops at the cap answers before the deadline.
    const calendar = await calendarServer((_, res) => {
      const chunk = Buffer.alloc(64 * 1024, "x");
      for (let sent = 0; sent < SIX_MB; sent += chunk.length) res.write(chunk);
    });
    const { code, ms } = await timedRefusal(() => calendarFetch(policy([calendar.host]))(calendar.url("/cal.ics")));
    expect(code).toBe("calendar_too_big");
    expect(ms).toBeLessThan(4_000);
    await expect.poll(() => calendar.closedSockets()).toBe(1);
  });

  it("refuses a body whose Content-Length is over the cap before reading it", async () => {
    const calendar = await calendarServer((_, res) => {
      res.writeHead(200, { "content-length": String(SIX_MB) });
      res.write("BEGIN:VCALENDAR"); // and nothing more: waiting for the rest would meet the deadline
    });
    const { code, ms } = await timedRefusal(() => calendarFetch(policy([calendar.host]))(calendar.url("/cal.ics")));
    expect(code).toBe("calendar_too_big");
    expect(ms).toBeLessThan(1_000);
  });

  it("counts the decompressed bytes", async () => {
    const bomb = gzipSync(Buffer.alloc(SIX_MB));
    expect(bomb.length).toBeLessThan(CALENDAR_FETCH_MAX_BYTES);
    const calendar = await calendarServer((_, res) => res.writeHead(200, { "content-encoding": "gzip" }).end(bomb));
    expect((await refusalOf(calendarFetch(policy([calendar.host]))(calendar.url("/cal.ics")))).code).toBe("calendar_too_big");
  });

  it("reads a body of exactly the cap, and refuses one byte more", async () => {
    const calendar = await calendarServer((request, res) => res.end("x".repeat(Number(request.path.slice(1)))));
    const read = calendarFetch(policy([calendar.host], { maxBytes: 1_000 }));
    expect((await (await read(calendar.url("/1000"))).text()).length).toBe(1_000);
    expect((await refusalOf(read(calendar.url("/1001")))).code).toBe("calendar_too_big");
  });
});

describe("the deadline", () => {
  it("gives up on a server that sends its headers and stalls, and closes the connection", async () => {
    const calendar = await calendarServer((_, res) => {
      res.writeHead(200, { "content-type": "text/calendar" });
      res.write("BEGIN:VCALENDAR\r\n");
    });
    const { code, ms } = await timedRefusal(() => calendarFetch(policy([calendar.host], { timeoutMs: 300 }))(calendar.url("/cal.ics")));
    expect(code).toBe("calendar_too_slow");
    expect(ms).toBeGreaterThanOrEqual(290);
    expect(ms).toBeLessThan(1_000);
    await expect.poll(() => calendar.closedSockets()).toBe(1);
  });

  it("is one deadline for all the hops, not one per hop", async () => {
    // Each hop takes 200 ms: three of them fit no 300 ms deadline, though each alone would.
    const calendar = await calendarServer((request, res) => {
      const hop = Number(request.path.slice(1));
      setTimeout(() => (hop < 2 ? res.writeHead(302, { location: `/${hop + 1}` }).end() : res.end("done")), 200);
    });
    const read = calendarFetch(policy([calendar.host], { timeoutMs: 300 }));
    expect(await (await read(calendar.url("/2"))).text()).toBe("done");
    expect((await refusalOf(read(calendar.url("/0")))).code).toBe("calendar_too_slow");
  });
});
