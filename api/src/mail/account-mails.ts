import type { OutgoingMail } from "./outbox.ts";
import { passwordResetBody, verifyEmailBody } from "./templates/account.ts";
import { renderMail, type MailBody } from "./templates/layout.ts";

// The mails the auth routes owe: verify the address, reset the password. Essential: preferences
// never stop them.

export type AccountMailInput = {
  /** Unique per sending: a resend is a new message. */
  messageId: string;
  userId: string;
  to: string;
  firstName: string | null;
  /** The full link the mail points to (PUBLIC_URL + path + token). */
  link: string;
  now: string;
};

function accountMail(kind: "verify_email" | "password_reset", body: MailBody, input: AccountMailInput): OutgoingMail {
  return { messageId: input.messageId, kind, essential: true, userId: input.userId, to: input.to, ...renderMail(body), sendAfter: input.now, createdAt: input.now };
}

export const verificationMail = (input: AccountMailInput): OutgoingMail => accountMail("verify_email", verifyEmailBody(input), input);

export const passwordResetMail = (input: AccountMailInput): OutgoingMail => accountMail("password_reset", passwordResetBody(input), input);
