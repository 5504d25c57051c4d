import { createTransport, type NodemailerError } from "nodemailer";
import type { MailAttachment } from "./outbox.ts";
import type { MailSettings } from "./settings.ts";

// How a message leaves: SMTP (nodemailer) when SMTP_URL is set, else the dev mailbox, where it
// stays in the outbox for the console to show.

export type Envelope = {
  /** The SMTP Message-ID header, `<…@host>`: the same on every attempt of one message. */
  messageId: string;
  from: string;
  to: string;
  subject: string;
  text: string;
  html: string;
  headers: Record<string, string>;
  attachments: MailAttachment[];
};

export type MailTransport = {
  /** Named in the process log. */
  name: string;
  /** Resolves once the server accepted the message; throws DeliveryFailed (or anything, taken as worth a retry) otherwise. */
  deliver(mail: Envelope): Promise<void>;
  close(): void;
};

/** A refusal; `permanent` when trying the same message again would get the same answer (an SMTP 5xx). */
export class DeliveryFailed extends Error {
  constructor(
    message: string,
    readonly permanent: boolean,
  ) {
    super(message);
    this.name = "DeliveryFailed";
  }
}

/**
 * The dev mailbox: delivering is marking sent. The message stays in the outbox, where the console
 * shows it as a real inbox would have it (sent once due, reminders waiting for their time,
 * skipped ones with why), through the same sender as production.
 */
export const devMailbox: MailTransport = { name: "the dev mailbox", deliver: async () => undefined, close: () => undefined };

/** SMTP from a URL: smtp://user:pass@host:587 (STARTTLS when offered) or smtps://…:465 (TLS from the start). */
export function smtpTransport(url: string): MailTransport {
  // Pooled: one connection carries a batch. Timeouts well inside the sender's lease, so a
  // hanging server fails the attempt before another sender may take the message.
  const transporter = createTransport({
    url,
    pool: true,
    maxConnections: 2,
    connectionTimeout: 15_000,
    greetingTimeout: 15_000,
    socketTimeout: 30_000,
  });
  return {
    name: `SMTP ${new URL(url).host}`,
    deliver: async (mail) => {
      try {
        await transporter.sendMail({
          ...mail,
          attachments: mail.attachments.map((a) => ({
            filename: a.filename,
            contentType: a.contentType,
            content: a.content,
            ...(a.encoding && { encoding: a.encoding }),
          })),
        });
      } catch (e) {
        const error = e as NodemailerError;
        throw new DeliveryFailed(`${error.message}${error.responseCode ? ` (SMTP ${error.responseCode})` : ""}`, error.permanent === true);
      }
    },
    close: () => transporter.close(),
  };
}

export const transportFor = (settings: Pick<MailSettings, "smtpUrl">): MailTransport =>
  settings.smtpUrl ? smtpTransport(settings.smtpUrl) : devMailbox;
