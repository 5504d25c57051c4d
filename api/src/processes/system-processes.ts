import { execFile } from "node:child_process";
import { readFile, readdir, readlink } from "node:fs/promises";
import { promisify } from "node:util";

// What `npm start` asks the operating system about other processes: whether one still runs, what
// it is, and which one listens on a port. Linux answers through /proc; elsewhere ps and lsof do.

const run = promisify(execFile);

export type SystemProcess = { pid: number; parentPid: number | null; args: string[] };

/** True while a process with this pid exists and has not exited (a zombie waiting to be reaped has). */
export async function isRunning(pid: number): Promise<boolean> {
  try {
    process.kill(pid, 0);
  } catch (e) {
    // EPERM: it runs, as a user we may not signal.
    if ((e as NodeJS.ErrnoException).code !== "EPERM") return false;
  }
  const stat = await readFile(`/proc/${pid}/stat`, "utf8").catch(() => null);
  return stat === null || !/^\d+ \(.*\) [ZX] /s.test(stat);
}

/** The running process with this pid, or null when none runs or it cannot be seen. */
export async function systemProcess(pid: number): Promise<SystemProcess | null> {
  if (!(await isRunning(pid))) return null;
  const proc = (file: string) => readFile(`/proc/${pid}/${file}`, "utf8").catch(() => null);
  const [cmdline, stat] = await Promise.all([proc("cmdline"), proc("stat")]);
  if (cmdline !== null && stat !== null) {
    // The command name (2nd field) may hold spaces and parentheses: the parent pid follows the last ")".
    const parentPid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
    return { pid, parentPid: Number.isInteger(parentPid) ? parentPid : null, args: cmdline.split("\0").filter(Boolean) };
  }
  const ps = await run("ps", ["-o", "ppid=,args=", "-p", String(pid)]).catch(() => null);
  const line = ps?.stdout.trim();
  if (!line) return null;
  const [parent, ...args] = line.split(/\s+/);
  return { pid, parentPid: Number(parent) || null, args };
}

/** The process listening on TCP `port` (any address), or null when none is found or it cannot be seen. */
export async function portListener(port: number): Promise<SystemProcess | null> {
  const pid = (await listenerFromProc(port)) ?? (await listenerFromLsof(port));
  return pid === null ? null : systemProcess(pid);
}

/** /proc/net/tcp{,6} give the listening socket's inode; the process holding it has a fd linking to `socket:[inode]`. */
async function listenerFromProc(port: number): Promise<number | null> {
  const tables = await Promise.all(["/proc/net/tcp", "/proc/net/tcp6"].map((f) => readFile(f, "utf8").catch(() => "")));
  const inodes = new Set<string>();
  for (const line of tables.join("\n").split("\n")) {
    const fields = line.trim().split(/\s+/);
    const [, local, , state] = fields;
    const inode = fields[9];
    // State 0A is LISTEN; the port is the hex after the local address's colon.
    if (state === "0A" && local && parseInt(local.slice(local.lastIndexOf(":") + 1), 16) === port && inode && inode !== "0")
      inodes.add(`socket:[${inode}]`);
  }
  if (inodes.size === 0) return null;
  const pids = (await readdir("/proc").catch(() => [] as string[])).filter((d) => /^\d+$/.test(d));
  for (const pid of pids) {
    const fds = await readdir(`/proc/${pid}/fd`).catch(() => [] as string[]);
    for (const fd of fds) {
      if (inodes.has(await readlink(`/proc/${pid}/fd/${fd}`).catch(() => ""))) return Number(pid);
    }
  }
  return null;
}

async function listenerFromLsof(port: number): Promise<number | null> {
  const lsof = await run("lsof", ["-nP", `-iTCP:${port}`, "-sTCP:LISTEN", "-t"]).catch(() => null);
  const pid = Number(lsof?.stdout.trim().split("\n")[0]);
  return Number.isInteger(pid) && pid > 0 ? pid : null;
}

/** A process's command line as a person reads it: credentials in URLs hidden, long ones cut. */
export function describeCommand(args: readonly string[]): string {
  const text = args.join(" ").replace(/(\/\/[^:/@\s]+:)[^@\s]+@/g, "$1***@");
  return text.length > 160 ? `${text.slice(0, 157)}...` : text;
}
