import type { OutgoingMail } from "./outbox.ts";

// The mails the auth routes owe: verify the address, reset the password. Essential: preferences
// never stop them. (Placeholder rendering; the mail templates replace it.)

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

export function verificationMail(input: AccountMailInput): OutgoingMail {
  const hello = `Hi ${input.firstName ?? "there"},`;
  const text = `${hello}\n\nPlease confirm your email by opening this link (it works for 24 hours):\n${input.link}\n`;
  return {
    messageId: input.messageId,
    kind: "verify_email",
    essential: true,
    userId: input.userId,
    to: input.to,
    subject: "Confirm your email",
    text,
    html: `<p>${hello}</p><p><a href="${input.link}">Confirm your email</a></p>`,
    sendAfter: input.now,
    createdAt: input.now,
  };
}

export function passwordResetMail(input: AccountMailInput): OutgoingMail {
  const hello = `Hi ${input.firstName ?? "there"},`;
  const text = `${hello}\n\nSomeone asked to reset your password. If it was you, open this link (it works for 1 hour):\n${input.link}\n\nIf it was not you, ignore this mail.\n`;
  return {
    messageId: input.messageId,
    kind: "password_reset",
    essential: true,
    userId: input.userId,
    to: input.to,
    subject: "Reset your password",
    text,
    html: `<p>${hello}</p><p><a href="${input.link}">Choose a new password</a></p>`,
    sendAfter: input.now,
    createdAt: input.now,
  };
}
