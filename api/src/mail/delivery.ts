import type pg from "pg";
import type { EventLog } from "@booking/contracts";
import { followLog, oneLine, type LogFollowing } from "@booking/event-store";
import { MailReactor } from "./reactor.ts";
import { MailSender, type MailSenderOptions } from "./sender.ts";
import type { MailSettings } from "./settings.ts";
import { transportFor, type MailTransport } from "./transport.ts";

// Mail in one loop: queue what the log owes, then send what is due. Woken by appends (a booking
// change), else looking again every `idleMs` (a reminder's time, a retry, an account mail queued
// by a route).

export type MailDelivery = { reactor: MailReactor; sender: MailSender };

/** Queue and send until nothing more is due now (tests; the loop does the same, one pass at a time). */
export async function deliverDue({ reactor, sender }: MailDelivery): Promise<{ read: number; sent: number }> {
  const read = await reactor.catchUp();
  let sent = 0;
  for (let pass = await sender.sendDue(); ; pass = await sender.sendDue()) {
    sent += pass.sent;
    if (!pass.more) break;
  }
  return { read, sent };
}

export type MailDeps = {
  log: EventLog;
  db: pg.Pool;
  settings: MailSettings;
  /** The JWT secret (unsubscribe links are signed with a key derived from it). */
  linkSecret: string;
  clock: () => string;
  /** MEETING_ROOM_URL_TEMPLATE: the generated room mails and invites name while the expert set no link. */
  meetingRoomUrlTemplate?: string | null;
};

export type RunningMail = LogFollowing & { transport: MailTransport };

/** The reactor and the sender over the transport the settings name, until stopped (the transport is closed then). */
export function runMail(deps: MailDeps, options: MailSenderOptions & { idleMs?: number } = {}): RunningMail {
  const transport = transportFor(deps.settings);
  const warn = options.warn ?? ((line: string) => console.warn(line));
  const reactor = new MailReactor(deps);
  const sender = new MailSender({ ...deps, transport }, { ...options, warn });
  const loop = followLog(
    deps.log,
    async () => {
      await reactor.catchUp();
      return (await sender.sendDue()).more ? "more" : undefined;
    },
    {
      idleMs: options.idleMs ?? 1000,
      onError: (e, failures, backoff) => warn(`mail: pass failed (${failures} in a row), retrying in ${backoff} ms: ${oneLine(e)}`),
    },
  );
  return {
    transport,
    done: loop.done,
    stop: async () => {
      await loop.stop();
      transport.close();
    },
  };
}
