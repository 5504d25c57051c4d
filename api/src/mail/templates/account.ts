import { PRODUCT_NAME, type MailBody } from "./layout.ts";

// The account's own mails: prove the address, choose a new password, and "you already have an
// account" (a sign-up with an address that has one). All are essential (no unsubscribe); the
// first two point at a page of the web app that reads the token from the link.

export type AccountLink = { firstName: string | null; link: string };

export const verifyEmailBody = ({ firstName, link }: AccountLink): MailBody => ({
  subject: "Confirm your email",
  heading: "Confirm your email address",
  preview: `One click and your ${PRODUCT_NAME} account is ready.`,
  firstName,
  paragraphs: [
    `Thanks for signing up to ${PRODUCT_NAME}. Please confirm that this address is yours; then you can sign in.`,
    "The link works for 24 hours.",
  ],
  action: { label: "Confirm my email", url: link },
  footer: "If you did not sign up, you can ignore this mail.",
});

export const passwordResetBody = ({ firstName, link }: AccountLink): MailBody => ({
  subject: "Reset your password",
  heading: "Choose a new password",
  preview: "Someone asked to reset your password. If it was you, the link works for 1 hour.",
  firstName,
  paragraphs: [
    `Someone asked to reset the password of your ${PRODUCT_NAME} account. If it was you, choose a new one; the link works for 1 hour.`,
  ],
  action: { label: "Choose a new password", url: link },
  footer: "If it was not you, ignore this mail: your password stays as it is.",
});

export type AccountExistsLinks = { firstName: string | null; signInUrl: string; forgotPasswordUrl: string };

/** Anyone can type an address into the sign-up form, so this mail carries no key: only where to sign in or ask for a reset. */
export const accountExistsBody = ({ firstName, signInUrl, forgotPasswordUrl }: AccountExistsLinks): MailBody => ({
  subject: "Someone tried to sign up with your address",
  heading: "You already have an account",
  preview: `Your ${PRODUCT_NAME} account is unchanged. Sign in, or choose a new password if you forgot it.`,
  firstName,
  paragraphs: [
    `Someone, maybe you, just tried to create a new account on ${PRODUCT_NAME} with this address. It already ` +
      `has one, so nothing was created and nothing about yours changed.`,
    `If it was you, sign in with your password. Forgot it? Choose a new one at ${forgotPasswordUrl}`,
  ],
  action: { label: "Sign in", url: signInUrl },
  footer: "If it was not you, you can ignore this mail: your account and password stay as they are.",
});
