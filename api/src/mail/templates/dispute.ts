import type { DisputeStatus } from "@booking/contracts";
import type { MailBody } from "./layout.ts";
import { details, nameOf, open, type BookingMailInput } from "./booking.ts";
import { dollars } from "./when.ts";

// The expert hears of a dispute of a booking's payment (issue 31.2): that the creator's bank disputed it and our team
// answers it, and how it ended; a lost one takes the expert's share of the amount back, as a refund would.

export function disputeOpenedBody(i: BookingMailInput, d: { amountCents: number; reason: string }): MailBody {
  const other = nameOf(i.other, i.side);
  return {
    subject: `${other}'s bank disputed the payment for ${i.booking.title}`,
    preview: "Our team answers it with the booking's history; you need do nothing unless we ask.",
    firstName: i.to.firstName,
    paragraphs: [
      `${other}'s bank disputed ${dollars(d.amountCents)} paid for ${i.booking.title} (reason given: ${d.reason.replaceAll("_", " ")}).`,
      "Our team answers the bank with the booking's history. You need do nothing unless we ask you for something. " +
        "If the bank decides for the creator, your share of the amount is taken back, as for a refund.",
    ],
    details: details(i),
    action: open(i, "See the booking"),
  };
}

export function disputeClosedBody(i: BookingMailInput, d: { status: DisputeStatus; lostCents: number }): MailBody {
  const lost = d.status === "lost";
  return {
    subject: lost ? `The dispute about ${i.booking.title} was lost` : `The dispute about ${i.booking.title} is closed`,
    preview: lost ? `${dollars(d.lostCents)} went back to the creator's bank.` : "Nothing changes for you.",
    firstName: i.to.firstName,
    paragraphs: lost
      ? [`The bank decided for the creator: ${dollars(d.lostCents)} went back to them. Your share of it is taken back, as for a refund.`]
      : ["The bank closed the dispute without taking the payment back. Nothing changes for you."],
    details: details(i),
    action: open(i, "See the booking"),
  };
}
