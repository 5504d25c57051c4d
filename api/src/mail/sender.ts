import type pg from "pg";
import { SpanKind, eventTraceContext, inSpan, oneLine } from "@booking/event-store";
import { FIRST_RETRY_MS, MAX_RETRY_MS, retryDelayMs } from "../reactors/index.ts";
import type { MailAttachment } from "./outbox.ts";
import type { MailSettings } from "./settings.ts";
import { DeliveryFailed, type MailTransport } from "./transport.ts";

// The sender: delivers due messages of the outbox and marks what became of them. At least once:
// a message is leased, sent, then marked sent; a sender killed between the send and the mark
// leaves it due again once the lease ends, and the retry goes out with the same Message-ID (made
// from the outbox id), so the receiving side can tell it is the same message.

export type MailSenderDeps = {
  db: pg.Pool;
  transport: MailTransport;
  settings: Pick<MailSettings, "publicUrl" | "from">;
  clock: () => string;
};

export type MailSenderOptions = {
  /** Messages taken together (default 20). */
  batchSize?: number;
  /** How long taken messages are kept from other senders (default 120 s); a batch stops at half of it. */
  leaseMs?: number;
  /** Attempts before a message is given up as failed (default 10). */
  maxAttempts?: number;
  /** The wait after the first failed attempt; it doubles per failure up to `maxRetryMs`. */
  firstRetryMs?: number;
  maxRetryMs?: number;
  warn?: (line: string) => void;
};

type DueRow = {
  message_id: string;
  to_address: string;
  subject: string;
  text_body: string;
  html_body: string;
  headers: Record<string, string>;
  attachments: MailAttachment[];
  attempts: number;
  send_before: Date | null;
  kind: string;
  trace_parent: string | null;
};

export type SendPass = { attempted: number; sent: number; failed: number; skipped: number; more: boolean };

// RFC 5322 dot-atom text without the dot: every other character is written =XX, so distinct ids stay distinct.
const ATEXT = /[A-Za-z0-9!#$%&'*+\-/?^_`{|}~]/;

/** The SMTP Message-ID of an outbox message: `<{message_id, escaped}@{host of PUBLIC_URL}>`. */
export function smtpMessageId(messageId: string, publicUrl: string): string {
  const left = [...messageId]
    .map((c) => (ATEXT.test(c) ? c : [...Buffer.from(c)].map((b) => `=${b.toString(16).toUpperCase().padStart(2, "0")}`).join("")))
    .join("");
  return `<${left}@${new URL(publicUrl).hostname}>`;
}

export class MailSender {
  private readonly batchSize: number;
  private readonly leaseMs: number;
  private readonly maxAttempts: number;
  private readonly firstRetryMs: number;
  private readonly maxRetryMs: number;
  private readonly warn: (line: string) => void;

  constructor(
    private readonly deps: MailSenderDeps,
    options: MailSenderOptions = {},
  ) {
    this.batchSize = options.batchSize ?? 20;
    this.leaseMs = options.leaseMs ?? 120_000;
    this.maxAttempts = options.maxAttempts ?? 10;
    this.firstRetryMs = options.firstRetryMs ?? FIRST_RETRY_MS;
    this.maxRetryMs = options.maxRetryMs ?? MAX_RETRY_MS;
    this.warn = options.warn ?? ((line) => console.warn(line));
  }

  /** Deliver one batch of due messages; `more` when the batch was full (more may be due). */
  async sendDue(): Promise<SendPass> {
    const now = this.deps.clock();
    const leasedUntil = Date.parse(now) + this.leaseMs;
    const due = await this.take(now, new Date(leasedUntil).toISOString());
    const pass: SendPass = { attempted: 0, sent: 0, failed: 0, skipped: 0, more: due.length >= this.batchSize };
    for (const row of due) {
      // Past half the lease, leave the rest: they are due again when the lease ends, before another sender could double them.
      if (Date.parse(this.deps.clock()) > leasedUntil - this.leaseMs / 2) {
        pass.more = true;
        break;
      }
      pass.attempted++;
      pass[await this.deliverInSpan(row)]++;
    }
    return pass;
  }

  private async take(now: string, leaseUntil: string): Promise<DueRow[]> {
    const { rows } = await this.deps.db.query<DueRow>(
      `UPDATE mail_outbox SET leased_until = $2, updated_at = now() WHERE message_id IN (
         SELECT message_id FROM mail_outbox
         WHERE status = 'pending' AND send_after <= $1 AND (leased_until IS NULL OR leased_until <= $1)
         ORDER BY send_after, message_id LIMIT $3 FOR UPDATE SKIP LOCKED
       ) RETURNING message_id, to_address, subject, text_body, html_body, headers, attachments, attempts, send_before, kind, trace_parent`,
      [now, leaseUntil, this.batchSize],
    );
    return rows.sort((a, b) => (a.message_id < b.message_id ? -1 : 1));
  }

  /** A delivery is a span in the trace the mail was owed under (the request that made the booking change, say). */
  private deliverInSpan(row: DueRow): Promise<"sent" | "failed" | "skipped"> {
    const parent = eventTraceContext({ ...(row.trace_parent && { traceparent: row.trace_parent }) });
    const attributes = { "mail.kind": row.kind, "mail.attempt": row.attempts + 1 };
    return inSpan("mail delivery", { kind: SpanKind.CLIENT, attributes, parent }, async (span) => {
      const outcome = await this.deliver(row);
      span.setAttribute("mail.outcome", outcome);
      return outcome;
    });
  }

  private async deliver(row: DueRow): Promise<"sent" | "failed" | "skipped"> {
    const { db, transport, settings, clock } = this.deps;
    if (row.send_before && Date.parse(clock()) >= row.send_before.getTime()) {
      await db.query(
        `UPDATE mail_outbox SET status = 'skipped', skipped_reason = $2, leased_until = NULL, updated_at = now() WHERE message_id = $1 AND status = 'pending'`,
        [row.message_id, "Its time passed before it could be sent."],
      );
      return "skipped";
    }
    const attempts = row.attempts + 1;
    try {
      await transport.deliver({
        messageId: smtpMessageId(row.message_id, settings.publicUrl),
        from: settings.from,
        to: row.to_address,
        subject: row.subject,
        text: row.text_body,
        html: row.html_body,
        headers: row.headers,
        attachments: row.attachments,
      });
    } catch (e) {
      const error = oneLine(e).slice(0, 500);
      const givingUp = (e instanceof DeliveryFailed && e.permanent) || attempts >= this.maxAttempts;
      const retryAt = new Date(Date.parse(clock()) + retryDelayMs(attempts, this.firstRetryMs, this.maxRetryMs)).toISOString();
      this.warn(
        `mail: ${row.message_id} to ${row.to_address} failed (attempt ${attempts})${givingUp ? ", giving up" : `, next try at ${retryAt}`}: ${error}`,
      );
      // The lease doubles as the back-off: the message is due again when it ends.
      await db.query(
        `UPDATE mail_outbox SET attempts = $2, last_error = $3, leased_until = $4, status = CASE WHEN $5 THEN 'failed' ELSE status END, updated_at = now()
         WHERE message_id = $1 AND status = 'pending'`,
        [row.message_id, attempts, error, givingUp ? null : retryAt, givingUp],
      );
      return "failed";
    }
    // Sent is what happened, even if the message was skipped while it was on its way.
    await db.query(
      `UPDATE mail_outbox SET status = 'sent', sent_at = $2, attempts = $3, leased_until = NULL, last_error = NULL, updated_at = now() WHERE message_id = $1`,
      [row.message_id, clock(), attempts],
    );
    return "sent";
  }
}
