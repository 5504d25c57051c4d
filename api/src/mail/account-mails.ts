import type { OutgoingMail } from "./outbox.ts";
import { accountExistsBody, passwordResetBody, verifyEmailBody } from "./templates/account.ts";
import { renderMail, type MailBody } from "./templates/layout.ts";

// The mails the auth routes owe: verify the address, reset the password, and tell an account's
// owner that someone tried to sign up with its address. Essential: preferences never stop them.

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

type AccountMailKind = "verify_email" | "password_reset" | "account_exists";
type Addressed = Omit<AccountMailInput, "link">;

function accountMail(kind: AccountMailKind, body: MailBody, input: Addressed): OutgoingMail {
  return {
    messageId: input.messageId,
    kind,
    essential: true,
    userId: input.userId,
    to: input.to,
    ...renderMail(body),
    sendAfter: input.now,
    createdAt: input.now,
  };
}

/** Said when the link goes on to a session the person chose to book (issue 27.4). */
const BACK_TO_BOOKING = "Once it is confirmed, the link takes you straight back to the session you chose to book.";

export const verificationMail = (input: AccountMailInput & { toBooking?: boolean }): OutgoingMail => {
  const body = verifyEmailBody(input);
  const paragraphs = input.toBooking ? [...body.paragraphs.slice(0, 1), BACK_TO_BOOKING, ...body.paragraphs.slice(1)] : body.paragraphs;
  return accountMail("verify_email", { ...body, paragraphs }, input);
};

export const passwordResetMail = (input: AccountMailInput): OutgoingMail => accountMail("password_reset", passwordResetBody(input), input);

/** "Someone tried to sign up with your address": where to sign in and where to ask for a new password (no token). */
export const accountExistsMail = (input: Addressed & { signInUrl: string; forgotPasswordUrl: string }): OutgoingMail =>
  accountMail("account_exists", accountExistsBody(input), input);
