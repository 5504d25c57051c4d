import { spawn, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { accessSync, constants } from "node:fs";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { createServer, request, type Server } from "node:http";
import { tmpdir } from "node:os";
import { delimiter, join } from "node:path";
import { freePort } from "./postgres.ts";

// A real CalDAV server for the external-calendar suites (issue 32): CALDAV_URL (with CALDAV_USERNAME
// and CALDAV_PASSWORD) when given, else Debian's radicale, else Debian's xandikos, on a free
// 127.0.0.1 port with a throwaway storage folder. Neither installed: null, said loudly, and the
// suite skips. The account starts with two event calendars, "Work" and "Bookings".

export type CalDavServer = {
  /**
   * Which server: xandikos 0.2.8 (Debian 12) never matches a recurring event in a calendar-query
   * time-range and ignores the component set asked for at MKCALENDAR; suites skip what it cannot do.
   */
  kind: "radicale" | "xandikos" | "CALDAV_URL";
  url: string;
  username: string;
  password: string;
  /** Where it runs, for the suite's title: "radicale on port 41234", "CALDAV_URL". */
  source: string;
  /** A second account with no calendars at all, where the server has accounts of its own (radicale). */
  emptyAccount: { username: string; password: string } | null;
  stop(): Promise<void>;
};

/** The calendars every run starts with: display name → path segment under the calendar home. */
export const CALDAV_CALENDARS = { Work: "work", Bookings: "bookings" } as const;

const SKIPPED = "CalDAV suite SKIPPED: neither radicale nor xandikos is installed (apt-get install radicale)";
const START_TIMEOUT_MS = 20_000;

/** A program on PATH (or in /usr/bin, where Debian puts both servers), as a full path. */
function onPath(name: string): string | null {
  for (const dir of (process.env.PATH ?? "").split(delimiter).concat("/usr/bin")) {
    const file = join(dir, name);
    try {
      accessSync(file, constants.X_OK);
      return file;
    } catch {
      // not in this folder
    }
  }
  return null;
}

/** A child's output, its last 4 KB: what a server that would not start said. */
function tail(child: ChildProcess): () => string {
  let seen = "";
  const keep = (chunk: Buffer) => (seen = (seen + chunk.toString()).slice(-4_096));
  child.stdout?.on("data", keep);
  child.stderr?.on("data", keep);
  return () => seen;
}

async function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  child.kill("SIGTERM");
  const killer = setTimeout(() => child.kill("SIGKILL"), 5_000);
  await exited;
  clearTimeout(killer);
}

/** Until the server answers at all (any status): it is listening. A child that exits first fails the wait. */
async function answering(url: string, child: ChildProcess, output: () => string): Promise<void> {
  const deadline = Date.now() + START_TIMEOUT_MS;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`CalDAV server exited with ${child.exitCode}:\n${output()}`);
    try {
      await (await fetch(url, { method: "OPTIONS", signal: AbortSignal.timeout(1_000) })).body?.cancel();
      return;
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
  throw new Error(`CalDAV server did not answer within ${START_TIMEOUT_MS / 1000} s:\n${output()}`);
}

const basic = (username: string, password: string) => `Basic ${Buffer.from(`${username}:${password}`).toString("base64")}`;

/**
 * xandikos has no accounts (it is meant to sit behind a proxy that signs users in): this is that
 * proxy, Basic auth for the one user in front of it, so a wrong password is refused as elsewhere.
 */
async function signInProxy(port: number, backendPort: number, username: string, password: string): Promise<Server> {
  const expected = basic(username, password);
  const proxy = createServer((req, res) => {
    if (req.headers.authorization !== expected) {
      res.writeHead(401, { "www-authenticate": 'Basic realm="CalDAV"', "content-type": "text/plain" }).end("Unauthorized");
      return;
    }
    const upstream = request(
      { host: "127.0.0.1", port: backendPort, method: req.method, path: req.url, headers: req.headers },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    upstream.on("error", () => res.writeHead(502).end());
    req.pipe(upstream);
  });
  await new Promise<void>((resolve, reject) => proxy.once("error", reject).listen(port, "127.0.0.1", () => resolve()));
  return proxy;
}

/** `listening`: where the server itself answers once up (behind a proxy, not the proxy: that answers at once). */
type Started = {
  kind: CalDavServer["kind"];
  child: ChildProcess;
  listening: string;
  source: string;
  emptyAccount: CalDavServer["emptyAccount"];
  proxy?: Server;
};

async function startRadicale(binary: string, dir: string, port: number, username: string, password: string): Promise<Started> {
  const empty = { username: "no-calendars", password: randomBytes(9).toString("hex") };
  const users = join(dir, "users");
  await writeFile(users, `${username}:${password}\n${empty.username}:${empty.password}\n`, { mode: 0o600 });
  // `--config ""`: no configuration files, so Debian's /etc/radicale/config (remote_user auth) is not read.
  const args = ["--config", "", "--server-hosts", `127.0.0.1:${port}`, "--storage-filesystem-folder", join(dir, "collections")];
  args.push("--auth-type", "htpasswd", "--auth-htpasswd-filename", users, "--auth-htpasswd-encryption", "plain");
  // owner_only: each user reaches only their own principal; no delay after a wrong password (tests try one).
  args.push("--rights-type", "owner_only", "--auth-delay", "0", "--logging-level", "warning");
  const child = spawn(binary, args, { stdio: ["ignore", "pipe", "pipe"] });
  return { kind: "radicale", child, listening: `http://127.0.0.1:${port}/`, source: `radicale on port ${port}`, emptyAccount: empty };
}

async function startXandikos(binary: string, dir: string, port: number, username: string, password: string): Promise<Started> {
  const backendPort = await freePort();
  const args = [
    "-d",
    join(dir, "collections"),
    "--autocreate",
    "--current-user-principal",
    `/${username}/`,
    "-l",
    "127.0.0.1",
    "-p",
    `${backendPort}`,
  ];
  const child = spawn(binary, args, { stdio: ["ignore", "pipe", "pipe"] });
  const proxy = await signInProxy(port, backendPort, username, password).catch(async (error: unknown) => {
    await stopChild(child);
    throw error;
  });
  const source = `xandikos on port ${backendPort}, behind a sign-in proxy on ${port}`;
  return { kind: "xandikos", child, listening: `http://127.0.0.1:${backendPort}/`, source, emptyAccount: null, proxy };
}

/** "Work" and "Bookings" in the account's calendar home, unless calendars of those names are there already. */
async function ensureCalendars(url: string, username: string, password: string): Promise<void> {
  // Loaded here, as testcontainers is in ./docker.ts: every suite imports this package, few need CalDAV.
  const { createAccount, fetchCalendars, makeCalendar } = await import("tsdav");
  const headers = { authorization: basic(username, password) };
  const account = await createAccount({ account: { accountType: "caldav", serverUrl: url, credentials: {} }, headers });
  const names = new Set((await fetchCalendars({ account, headers })).map((c) => String(c.displayName)));
  for (const [name, segment] of Object.entries(CALDAV_CALENDARS)) {
    if (names.has(name)) continue;
    const props = { "d:displayname": name, "c:supported-calendar-component-set": { "c:comp": { _attributes: { name: "VEVENT" } } } };
    const [made] = await makeCalendar({ url: new URL(`${segment}/`, account.homeUrl).href, props, headers });
    if (!made?.ok) throw new Error(`MKCALENDAR ${name} answered ${made?.status}: ${String(made?.raw ?? "")}`);
  }
}

/** A CalDAV server with an account that has "Work" and "Bookings"; null (said loudly) when there is none to start. */
export async function startCalDavServer(): Promise<CalDavServer | null> {
  const fromEnv = process.env.CALDAV_URL;
  if (fromEnv) {
    const username = process.env.CALDAV_USERNAME ?? "";
    const password = process.env.CALDAV_PASSWORD ?? "";
    await ensureCalendars(fromEnv, username, password);
    return { kind: "CALDAV_URL", url: fromEnv, username, password, source: "CALDAV_URL", emptyAccount: null, stop: async () => undefined };
  }
  // CALDAV_SERVER=xandikos tries the fallback where both are installed.
  const order = process.env.CALDAV_SERVER === "xandikos" ? ["xandikos", "radicale"] : ["radicale", "xandikos"];
  const found = order.map((name) => ({ name, binary: onPath(name) })).find((candidate) => candidate.binary !== null);
  if (!found?.binary) {
    const bar = "!".repeat(SKIPPED.length);
    console.warn(`\n${bar}\n${SKIPPED}\n${bar}\n`);
    return null;
  }

  const dir = await mkdtemp(join(tmpdir(), "booking-caldav-"));
  const port = await freePort();
  const url = `http://127.0.0.1:${port}/`;
  const username = "expert";
  const password = randomBytes(12).toString("hex");
  const start = found.name === "radicale" ? startRadicale : startXandikos;
  const started = await start(found.binary, dir, port, username, password);
  const output = tail(started.child);
  // A test worker that dies without its teardown must not leave the server running.
  const orphaned = () => started.child.kill("SIGKILL");
  process.once("exit", orphaned);
  const stop = async () => {
    process.off("exit", orphaned);
    await new Promise<void>((resolve) => (started.proxy ? started.proxy.close(() => resolve()).closeAllConnections() : resolve()));
    await stopChild(started.child);
    await rm(dir, { recursive: true, force: true });
  };
  try {
    await answering(started.listening, started.child, output);
    await ensureCalendars(url, username, password);
  } catch (error) {
    await stop();
    throw error;
  }
  return { kind: started.kind, url, username, password, source: started.source, emptyAccount: started.emptyAccount, stop };
}
