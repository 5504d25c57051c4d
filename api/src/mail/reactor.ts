import type pg from "pg";
import { context } from "@opentelemetry/api";
import type { EventLog } from "@booking/contracts";
import { eventTraceContext } from "@booking/event-store";
import { signLink } from "../auth/index.ts";
import { mailFact } from "./facts.ts";
import { reactToNextBatch, type Queryable } from "../reactors/index.ts";
import { dropMailsTo } from "./erasure.ts";
import { applyFact, loadBookingState, loadExpertRecipient, mutedThread, skipBookingReminders, skipUserReminders } from "./facts-table.ts";
import { enqueueMail } from "./outbox.ts";
import { owedMails, vettingMail, type MailEnv } from "./owed.ts";
import { withReceipts } from "./templates/receipt.ts";
import type { MailSettings } from "./settings.ts";

// The mail reactor: the log's booking events become messages in the outbox. A batch of the log,
// the facts it states and the messages it owes are written in one transaction with the
// checkpoint, so a crash neither loses a mail nor queues one twice (a message's id is made from
// the owing event's id, and the outbox keeps the first of an id).

export type MailReactorDeps = {
  log: EventLog;
  db: pg.Pool;
  settings: Pick<MailSettings, "publicUrl">;
  /** Signs unsubscribe links (the JWT secret; a key of its own is derived from it). */
  linkSecret: string;
  /** MEETING_ROOM_URL_TEMPLATE: the room a confirmed booking meets in while its expert set no link (null: none). */
  meetingRoomUrlTemplate?: string | null;
  clock: () => string;
};

export type MailReactorOptions = {
  /** Names the checkpoint (default "mail"). */
  name?: string;
  /** Events read together (default 500). */
  batchSize?: number;
};

export class MailReactor {
  readonly name: string;
  readonly batchSize: number;

  constructor(
    private readonly deps: MailReactorDeps,
    options: MailReactorOptions = {},
  ) {
    this.name = options.name ?? "mail";
    this.batchSize = options.batchSize ?? 500;
  }

  /** Read the next batch of the log, queue the mails it owes, move the checkpoint; resolves to how many events were read. */
  async follow(): Promise<number> {
    return reactToNextBatch(
      { db: this.deps.db, log: this.deps.log, table: "mail_checkpoints", name: this.name, batchSize: this.batchSize },
      async (client, batch) => {
        const env: MailEnv = {
          publicUrl: this.deps.settings.publicUrl,
          unsubscribeToken: (userId, at) => signLink(this.deps.linkSecret, "unsubscribe", userId, at),
          now: this.deps.clock(),
          meetingRoomUrlTemplate: this.deps.meetingRoomUrlTemplate ?? null,
        };
        for (const stored of batch) {
          const fact = mailFact(stored);
          // In the owing event's trace context, so the mails it queues carry it to their delivery.
          if (fact && (await applyFact(client, fact)))
            await context.with(eventTraceContext(stored.metadata), () => this.queue(client, fact, env));
        }
      },
    );
  }

  /** Follow the log to its end (tests and the delivery loop use it); resolves to how many events were read. */
  async catchUp(): Promise<number> {
    let read = 0;
    for (let n = await this.follow(); n > 0; n = n >= this.batchSize ? await this.follow() : 0) read += n;
    return read;
  }

  /** What an applied fact owes: messages to queue, reminders that no longer hold. */
  private async queue(client: Queryable, fact: NonNullable<ReturnType<typeof mailFact>>, env: MailEnv): Promise<void> {
    switch (fact.kind) {
      case "registered":
      case "renamed":
      case "schedule":
      case "expert_profile":
        return;
      case "vetting": {
        const to = await loadExpertRecipient(client, fact.expertId);
        if (to) await enqueueMail(client, vettingMail(fact, to, env.publicUrl));
        return;
      }
      case "erased":
        await dropMailsTo(client, fact.userId, null);
        return;
      case "preferences":
        if (!fact.reminderMails) await skipUserReminders(client, fact.userId, fact.version, "The recipient turned reminder mails off.");
        return;
      case "time_proposed":
      case "rescheduled":
        await skipBookingReminders(client, fact.bookingId, "The booking moved to another time.", fact.startsAt);
        break;
      case "join_link_set":
        // Queued again with the link; the ones queued by this event itself (a re-read) stay.
        await skipBookingReminders(client, fact.bookingId, "Replaced by reminders with the meeting link.", null, fact.eventId);
        break;
      case "cancelled":
        // Final: no later event of the booking queues reminders again.
        await skipBookingReminders(client, fact.bookingId, "The booking was cancelled.");
        break;
      case "conversation_muted":
        return;
      case "message_sent": {
        // A reader who muted the thread gets no mail of it (the message still counts as unread for them).
        const state = await loadBookingState(client, fact.bookingId);
        const reader = state && (state.creator?.userId === fact.by ? state.expert : state.creator);
        if (!state || !reader || (await mutedThread(client, fact.bookingId, reader.userId))) return;
        for (const mail of owedMails(fact, state, env)) await enqueueMail(client, mail);
        return;
      }
      default:
        break;
    }
    const state = await loadBookingState(client, fact.bookingId);
    if (!state) return;
    for (const mail of await withReceipts(client, fact, state, owedMails(fact, state, env))) await enqueueMail(client, mail);
  }
}
