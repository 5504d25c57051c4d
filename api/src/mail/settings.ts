// What every part that makes or shows mail needs to agree on: where links point, who mail is
// from, and whether mail goes out by SMTP or stays in the dev mailbox.

export type MailSettings = {
  /** The product's address as people reach it (links in mails start with it), no trailing slash. */
  publicUrl: string;
  /** The From header, e.g. `Expert Sessions <hello@example.com>`. */
  from: string;
  /** smtp(s)://user:pass@host:port; null: mail stays in the outbox, shown at the dev mailbox. */
  smtpUrl: string | null;
};

export const DEFAULT_MAIL_FROM = "Expert Sessions <no-reply@localhost>";

/** The dev mailbox (console page and /admin/mailbox) exists only while no SMTP server is configured. */
export const devMailboxOn = (settings: MailSettings): boolean => settings.smtpUrl === null;

export function mailSettings(input: {
  publicUrl?: string | undefined;
  port?: number;
  from?: string | undefined;
  smtpUrl?: string | undefined;
}): MailSettings {
  const publicUrl = (input.publicUrl ?? `http://localhost:${input.port ?? 3000}`).replace(/\/+$/, "");
  return { publicUrl, from: input.from ?? DEFAULT_MAIL_FROM, smtpUrl: input.smtpUrl ?? null };
}
