import type { AddressInfo } from "node:net";
import { simpleParser } from "mailparser";
import { SMTPServer } from "smtp-server";

// A real SMTP server in the test process (the `smtp-server` package): what the sender delivers
// arrives over SMTP and is read back with `mailparser`, as a mail client would read it.

export type ArrivedMail = {
  /** The Message-ID header as sent, `<…@host>`. */
  messageId: string;
  /** The envelope's recipient (RCPT TO). */
  to: string;
  from: string;
  subject: string;
  text: string;
  html: string;
  /** Every header, lower-case names, values as raw text. */
  headers: Record<string, string>;
  attachments: { filename: string; contentType: string; content: string }[];
};

export type TestSmtp = {
  url: string;
  /** Everything accepted so far, in order of arrival. */
  arrived: ArrivedMail[];
  close: () => Promise<void>;
};

/**
 * Listen on a free port; `delayMs` holds each message before accepting it (a slow server, so a
 * kill lands mid-batch); `refuse` answers a recipient with an SMTP error code (4xx: try later,
 * 5xx: never), or null to take it.
 */
export async function startTestSmtp(options: { delayMs?: number; refuse?: (to: string) => number | null } = {}): Promise<TestSmtp> {
  const arrived: ArrivedMail[] = [];
  const server = new SMTPServer({
    authOptional: true,
    // Plain SMTP on localhost: no STARTTLS offered (its built-in certificate is for nothing but warnings).
    disabledCommands: ["STARTTLS", "AUTH"],
    logger: false,
    onRcptTo(address, _session, callback) {
      const code = options.refuse?.(address.address) ?? null;
      if (code === null) return callback();
      callback(Object.assign(new Error(code >= 500 ? "No such mailbox here" : "Mailbox busy, try again later"), { responseCode: code }));
    },
    onData(stream, session, callback) {
      simpleParser(stream)
        .then(async (mail) => {
          if (options.delayMs) await new Promise((r) => setTimeout(r, options.delayMs));
          const headers: Record<string, string> = {};
          for (const line of mail.headerLines) headers[line.key] = line.line.slice(line.line.indexOf(":") + 1).trim();
          arrived.push({
            messageId: mail.messageId ?? "",
            to: session.envelope.rcptTo.map((r) => r.address).join(","),
            from: mail.from?.text ?? "",
            subject: mail.subject ?? "",
            text: mail.text ?? "",
            html: typeof mail.html === "string" ? mail.html : "",
            headers,
            attachments: mail.attachments.map((a) => ({
              filename: a.filename ?? "",
              contentType: a.contentType,
              content: a.content.toString("utf8"),
            })),
          });
          callback();
        })
        .catch((e: unknown) => callback(e instanceof Error ? e : new Error(String(e))));
    },
  });
  // A client killed mid-message resets its connection: what a server lives with, not a failure of the test.
  server.on("error", () => undefined);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()));
  const { port } = server.server.address() as AddressInfo;
  return { url: `smtp://127.0.0.1:${port}`, arrived, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}
