import type { MailBody } from "./layout.ts";
import { details, nameOf, open, type BookingMailInput } from "./booking.ts";

// A new message in a booking's conversation (issue 31.3): at most one mail per reader and thread per period, for its
// first message; essential (it is about their booking), but a reader can mute the thread in the app.

export function messageReceivedBody(i: BookingMailInput, text: string): MailBody {
  const other = nameOf(i.other, i.side);
  return {
    subject: `New message from ${other} about ${i.booking.title}`,
    preview: text.slice(0, 120),
    firstName: i.to.firstName,
    paragraphs: [`${other} wrote to you about ${i.booking.title}:`],
    quote: text,
    details: details(i),
    action: open(i, "Reply"),
    footer: "You can mute this conversation on the booking's page: then no mail comes of it.",
  };
}
