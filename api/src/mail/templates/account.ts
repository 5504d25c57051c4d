import { PRODUCT_NAME, type MailBody } from "./layout.ts";

// The account's own mails: prove the address, choose a new password. Both are essential (no
// unsubscribe) and point at a page of the web app that reads the token from the link.

export type AccountLink = { firstName: string | null; link: string };

export const verifyEmailBody = ({ firstName, link }: AccountLink): MailBody => ({
  subject: "Confirm your email",
  heading: "Confirm your email address",
  preview: `One click and your ${PRODUCT_NAME} account is ready.`,
  firstName,
  paragraphs: [`Thanks for signing up to ${PRODUCT_NAME}. Please confirm that this address is yours; then you can sign in.`, "The link works for 24 hours."],
  action: { label: "Confirm my email", url: link },
  footer: "If you did not sign up, you can ignore this mail.",
});

export const passwordResetBody = ({ firstName, link }: AccountLink): MailBody => ({
  subject: "Reset your password",
  heading: "Choose a new password",
  preview: "Someone asked to reset your password. If it was you, the link works for 1 hour.",
  firstName,
  paragraphs: [`Someone asked to reset the password of your ${PRODUCT_NAME} account. If it was you, choose a new one; the link works for 1 hour.`],
  action: { label: "Choose a new password", url: link },
  footer: "If it was not you, ignore this mail: your password stays as it is.",
});
