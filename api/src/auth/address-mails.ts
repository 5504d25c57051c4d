import { randomUUID } from "node:crypto";
import { performance } from "node:perf_hooks";
import { setTimeout as sleep } from "node:timers/promises";
import type pg from "pg";
import { isBookingPath } from "@booking/contracts";
import {
  accountExistsMail,
  passwordResetMail,
  verificationMail,
  enqueueMail,
  mailsSentTo,
  type MailKind,
  type OutgoingMail,
} from "../mail/index.ts";
import type { MailSettings } from "../mail/index.ts";
import type { Account } from "./accounts.ts";
import { signLink, type LinkPurpose } from "./signed-links.ts";

// The mails that prove an address is its owner's: the verification link (sign-up, "send again")
// and the password-reset link. Each is a fresh message with a fresh signed link; an address gets
// at most ADDRESS_MAILS_PER_HOUR of each kind, and past that the request is answered as usual
// with nothing sent (a 429 per address would tell who has an account). The same share holds for
// the mail telling an account's owner that someone tried to sign up with its address.

export const ADDRESS_MAILS_PER_HOUR = 3;

/**
 * Queuing a mail (an insert and its commit) takes a few milliseconds that answering "nothing to
 * send" does not: measured 5.6 ms against 1.7 ms (median). Every request waits until this long
 * after it started, so the answer comes at the same time whether or not a mail was queued.
 */
export const EVEN_ANSWER_MS = 50;

/** What making a link takes: the key links are signed with and where the product is reached. */
export type LinkSettings = { jwtSecret: string; mail: MailSettings };

export type Recipient = Pick<Account, "userId" | "email" | "firstName">;

const pages = { verify_email: "verify-email", password_reset: "reset-password" } as const satisfies Partial<Record<LinkPurpose, string>>;
type AddressLink = keyof typeof pages;

/** `&next=…` or `?next=…` for a destination (a return path, issue 27.4), or nothing. */
const nextParam = (separator: "?" | "&", destination: string | null) =>
  destination === null ? "" : `${separator}next=${encodeURIComponent(destination)}`;

/** The web page a mail's link opens, with the signed token for `purpose` and the destination it signs. */
export function linkFor(
  settings: LinkSettings,
  purpose: AddressLink,
  userId: string,
  now: string,
  destination: string | null = null,
): string {
  return `${settings.mail.publicUrl}/${pages[purpose]}?token=${signLink(settings.jwtSecret, purpose, userId, now, destination)}${nextParam("&", destination)}`;
}

const render = { verify_email: verificationMail, password_reset: passwordResetMail } as const satisfies Record<AddressLink, unknown>;
const idPrefix = { verify_email: "verify", password_reset: "reset" } as const satisfies Record<AddressLink, string>;

/** The message with a fresh link: its id is new at every sending (a resend is a new message). */
export function addressMail(
  settings: LinkSettings,
  purpose: AddressLink,
  to: Recipient,
  now: string,
  destination: string | null = null,
): OutgoingMail {
  return render[purpose]({
    messageId: `${idPrefix[purpose]}:${to.userId}:${randomUUID()}`,
    userId: to.userId,
    to: to.email,
    firstName: to.firstName,
    link: linkFor(settings, purpose, to.userId, now, destination),
    toBooking: isBookingPath(destination),
    now,
  });
}

const kindOf = { verify_email: "verify_email", password_reset: "password_reset" } as const satisfies Record<AddressLink, MailKind>;

/**
 * Queue `purpose`'s mail to `address` when `owed` (an account that should get it) and the address
 * is under its hourly share. Whether owed or not, the same look-ups and the same rendering run,
 * and the promise settles EVEN_ANSWER_MS after the call, so an address with no account is not
 * answered measurably faster. Resolves to whether a mail was queued.
 */
export async function sendAddressMail(
  db: Pick<pg.Pool, "query">,
  settings: LinkSettings,
  purpose: AddressLink,
  address: string,
  owed: Recipient | null,
  now: string,
  destination: string | null = null,
): Promise<boolean> {
  const started = performance.now();
  try {
    const hourAgo = new Date(Date.parse(now) - 3_600_000).toISOString();
    const sent = await mailsSentTo(db, address, [kindOf[purpose]], hourAgo);
    // Rendered for nobody too (the signing and templating cost the same), then dropped.
    const mail = addressMail(settings, purpose, owed ?? { userId: randomUUID(), email: address, firstName: null }, now, destination);
    if (!owed || sent >= ADDRESS_MAILS_PER_HOUR) return false;
    return await enqueueMail(db, mail);
  } finally {
    await sleep(Math.max(0, EVEN_ANSWER_MS - (performance.now() - started)));
  }
}

/**
 * A sign-up with an address that has an account: tell the owner (sign in, or ask for a new
 * password), unless the address had its hourly share of these mails already. The mail carries no
 * token: anyone can make us send it. Resolves to whether a mail was queued.
 */
export async function sendAccountExistsMail(
  db: Pick<pg.Pool, "query">,
  settings: Pick<LinkSettings, "mail">,
  owner: Recipient,
  now: string,
  destination: string | null = null,
): Promise<boolean> {
  const hourAgo = new Date(Date.parse(now) - 3_600_000).toISOString();
  if ((await mailsSentTo(db, owner.email, ["account_exists"], hourAgo)) >= ADDRESS_MAILS_PER_HOUR) return false;
  const { publicUrl } = settings.mail;
  return enqueueMail(
    db,
    accountExistsMail({
      messageId: `exists:${owner.userId}:${randomUUID()}`,
      userId: owner.userId,
      to: owner.email,
      firstName: owner.firstName,
      // Unsigned (anyone can make us send this mail): the login page follows only a path on this site.
      signInUrl: `${publicUrl}/login${nextParam("?", destination)}`,
      forgotPasswordUrl: `${publicUrl}/forgot-password`,
      now,
    }),
  );
}

/**
 * The newest `purpose` link mailed to `address`, read back from the outbox: its message and token.
 * The demo seed verifies its accounts through it; tests follow links with it.
 */
export async function lastLinkSentTo(
  db: Pick<pg.Pool, "query">,
  purpose: AddressLink,
  address: string,
): Promise<{ messageId: string; token: string } | null> {
  const { rows } = await db.query<{ message_id: string; text_body: string }>(
    "SELECT message_id, text_body FROM mail_outbox WHERE lower(to_address) = lower($1) AND kind = $2 ORDER BY created_at DESC, message_id LIMIT 1",
    [address, kindOf[purpose]],
  );
  const token = rows[0] && new RegExp(`/${pages[purpose]}\\?token=([\\w.-]+)`).exec(rows[0].text_body)?.[1];
  return token ? { messageId: rows[0]!.message_id, token } : null;
}
