import type { SupportMessageBody, SupportTopic } from "@booking/contracts";
import type { OutgoingMail } from "../mail/index.ts";
import { renderMail } from "../mail/index.ts";

// The help page's contact form, as a mail to the support team (issue 27.3). Essential: it is the
// visitor's message, not a notification anyone opted into.

const TOPIC_NAMES: Record<SupportTopic, string> = {
  booking: "a booking",
  payment: "a payment",
  refund: "a refund",
  expert: "being an expert",
  account: "an account",
  other: "something else",
};

export type SupportMailInput = { messageId: string; to: string; message: SupportMessageBody; publicUrl: string; now: string };

export function supportRequestMail({ messageId, to, message, publicUrl, now }: SupportMailInput): OutgoingMail {
  const rendered = renderMail({
    subject: `Help request about ${TOPIC_NAMES[message.topic]}, from ${message.name}`,
    preview: `${message.name} wrote about ${TOPIC_NAMES[message.topic]} from the help page.`,
    firstName: null,
    paragraphs: [`${message.name} wrote from the help page. Reply to this mail to answer them at ${message.email}.`],
    quote: message.message,
    details: [
      { label: "From", value: `${message.name} <${message.email}>` },
      { label: "About", value: TOPIC_NAMES[message.topic] },
    ],
    action: { label: "Open the console", url: `${publicUrl}/admin/` },
  });
  // Replies go to the person who wrote, not to our no-reply sender.
  return {
    messageId,
    kind: "support_request",
    essential: true,
    userId: null,
    to,
    ...rendered,
    headers: { "Reply-To": message.email },
    sendAfter: now,
    createdAt: now,
  };
}
