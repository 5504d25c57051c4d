// What other areas use of mail/: they import it from here, never from its files (eslint.config.js).
// Written by issue 28's layout script from the imports of the day; add an export when another area needs one.

export { enqueueMail, mailsSentTo } from "./outbox.ts";
export type { MailKind, OutgoingMail } from "./outbox.ts";
export { mailMigrations } from "./schema.ts";
export { devMailboxOn, mailSettings } from "./settings.ts";
export type { MailSettings } from "./settings.ts";
export { renderMail } from "./templates/layout.ts";
export { localTime, zoneOrUtc } from "./templates/when.ts";
export { mailConfig } from "./config.ts";
export { accountExistsMail, passwordResetMail, verificationMail } from "./account-mails.ts";
export { unsubscribeRoutes } from "./unsubscribe-routes.ts";
export { runMail } from "./delivery.ts";
export { forgetInMail } from "./erasure.ts";
export type { ErasedRecipient } from "./erasure.ts";
