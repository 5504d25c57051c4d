import { randomUUID } from "node:crypto";
import type pg from "pg";
import { NoContent, SupportMessageBody } from "@booking/contracts";
import { mailRequestsPerQuarterHour } from "../auth/index.ts";
import type { RoutePlugin } from "../http/index.ts";
import { enqueueMail } from "../mail/index.ts";
import type { MailSettings } from "../mail/index.ts";
import { supportRequestMail } from "./support-mail.ts";

export type SupportRouteDeps = { db: pg.Pool; clock: () => string; mail: MailSettings; supportAddress: string };

/** Where the contact form's messages go when SUPPORT_EMAIL is not set: shown in the dev mailbox. */
export const DEFAULT_SUPPORT_ADDRESS = "support@localhost";

/**
 * POST /support/messages: the help page's contact form, open to visitors. It mails the support
 * address, limited per client address like the other routes that send mail.
 */
export const supportRoutes: RoutePlugin<SupportRouteDeps> = async (app, { db, clock, mail, supportAddress }) => {
  const rateLimit = { max: mailRequestsPerQuarterHour(), timeWindow: "15 minutes" };
  app.post(
    "/support/messages",
    { config: { rateLimit }, schema: { body: SupportMessageBody, response: { 204: NoContent } } },
    async (request, reply) => {
      const now = clock();
      await enqueueMail(
        db,
        supportRequestMail({ messageId: randomUUID(), to: supportAddress, message: request.body, publicUrl: mail.publicUrl, now }),
      );
      return reply.status(204).send(null);
    },
  );
};
