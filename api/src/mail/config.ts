import { z } from "zod";
import { apiConfig, storeConfig } from "../main/index.ts";

/** The mail process's settings: the store, where links point and mail goes (as the API has them), and how it paces and retries. */
export const mailConfig = storeConfig
  .extend(
    apiConfig.pick({ JWT_SECRET: true, PUBLIC_URL: true, PORT: true, SMTP_URL: true, MAIL_FROM: true, MEETING_ROOM_URL_TEMPLATE: true })
      .shape,
  )
  .extend({
    /** How often to look for mail that came due (a reminder's time, a retry) when no append wakes the process. */
    MAIL_IDLE_MS: z.coerce.number().int().min(10).max(60_000).default(1000),
    /** How long messages taken by this process are kept from others (a process killed mid-batch leaves them due after this). */
    MAIL_LEASE_MS: z.coerce.number().int().min(100).max(600_000).default(120_000),
    /** The first retry's wait after a failed delivery (it doubles per failure, up to an hour). */
    MAIL_FIRST_RETRY_MS: z.coerce.number().int().min(10).max(3_600_000).default(30_000),
    /** Attempts before a message is given up as failed. */
    MAIL_MAX_ATTEMPTS: z.coerce.number().int().min(1).max(100).default(10),
  });
