import { z } from "zod";

// A user's personal calendar feed: a secret address calendar apps subscribe to.

/** GET /calendar/feed and POST /calendar/feed/regenerate: the same feed as webcal:// (subscribe) and https:// (copy). */
export const CalendarFeedReply = z.strictObject({ webcal_url: z.string(), https_url: z.string() });
export type CalendarFeedReply = z.infer<typeof CalendarFeedReply>;

/** GET /calendar/:file — the feed's file name is its token and `.ics`. */
export const CalendarFeedParams = z.strictObject({
  file: z
    .string()
    .max(300)
    .regex(/^[\w.-]+\.ics$/, { error: "calendar_feed_not_found" }),
});
