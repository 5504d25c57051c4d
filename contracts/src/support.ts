import { z } from "zod";

// A message to the support team from the help page's contact form (issue 27.3). The same schema
// checks the form in the browser and the body at the API, so both say the same thing.

/** C0 and C1 controls and the Unicode line and paragraph separators. */
const breaksTheLine = (c: string): boolean => {
  const n = c.codePointAt(0)!;
  return n < 0x20 || (n >= 0x7f && n <= 0x9f) || n === 0x2028 || n === 0x2029;
};

/** The most characters a message may hold. */
export const SUPPORT_MESSAGE_MAX = 4000;

export const SUPPORT_TOPICS = ["booking", "payment", "refund", "expert", "account", "other"] as const;
export const SupportTopic = z.enum(SUPPORT_TOPICS, { error: "support_topic_required" });
export type SupportTopic = z.infer<typeof SupportTopic>;

export const SupportMessageBody = z.strictObject({
  name: z
    .string({ error: "support_name_required" })
    .trim()
    .min(1, { error: "support_name_required" })
    .max(100, { error: "support_name_required" })
    // One line: the name is written into the mail's subject.
    .refine((v) => ![...v].some(breaksTheLine), { error: "support_name_required" }),
  email: z
    .string({ error: "support_email_invalid" })
    .trim()
    .toLowerCase()
    .max(254, { error: "support_email_invalid" })
    .pipe(z.email({ error: "support_email_invalid" })),
  topic: SupportTopic,
  message: z
    .string({ error: "support_message_required" })
    .trim()
    .min(1, { error: "support_message_required" })
    .max(SUPPORT_MESSAGE_MAX, { error: "support_message_required" }),
});
export type SupportMessageBody = z.infer<typeof SupportMessageBody>;
