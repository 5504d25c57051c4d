import type { NoShowOutcome } from "@booking/contracts";
import type { MailBody } from "./layout.ts";
import { details, nameOf, open, when, type BookingMailInput, type Side } from "./booking.ts";
import { dollars } from "./when.ts";

// The no-show mails (issue 31.1): the reported party learns of the report and their 48 hours to contest; the
// reporter learns of a contest; both learn how it ended and why. Times in the reader's zone, as every booking mail.

/** To the party reported absent. */
export function noShowReportedBody(i: BookingMailInput, report: { note: string; contestBy: string }): MailBody {
  const other = nameOf(i.other, i.side);
  const stands =
    i.side === "expert" ? `${other} will be refunded in full and the session counts as missed by you.` : `${other} keeps the payment.`;
  return {
    subject: `${other} reported that you did not join ${i.booking.title}`,
    preview: `You can contest this until ${when(i, report.contestBy)}.`,
    firstName: i.to.firstName,
    paragraphs: [
      `${other} reported that you did not join ${i.booking.title} on ${when(i)}.`,
      `If you were there, contest the report by ${when(i, report.contestBy)} and our team will decide. If you do not, the report stands: ${stands}`,
      ...(report.note ? [`${other}'s note:`] : []),
    ],
    ...(report.note && { quote: report.note }),
    details: details(i, [{ label: "Contest by", value: when(i, report.contestBy) }]),
    action: open(i, "See the report"),
  };
}

/** To the party who reported: the other contests, and our team decides. */
export function noShowContestedBody(i: BookingMailInput, note: string): MailBody {
  const other = nameOf(i.other, i.side);
  return {
    subject: `${other} contests your no-show report for ${i.booking.title}`,
    preview: "Our team will review the booking and decide.",
    firstName: i.to.firstName,
    paragraphs: [
      `${other} says they were there for ${i.booking.title} on ${when(i)}.`,
      "Our team will review the booking's history and decide. We will mail you both with the decision and its reason.",
      ...(note ? [`${other}'s note:`] : []),
    ],
    ...(note && { quote: note }),
    details: details(i),
    action: open(i, "See the booking"),
  };
}

const OUTCOME_WORDS: Record<NoShowOutcome, (absentName: string) => string> = {
  expert_no_show: (name) => `The session counts as missed by ${name}.`,
  creator_no_show: (name) => `The session counts as missed by ${name}.`,
  completed: () => "The session counts as held.",
};

/** To both parties: how the report ended, the refund and (from our team) the reason. */
export function noShowSettledBody(
  i: BookingMailInput,
  end: { absent: Side; outcome: NoShowOutcome; refundCents: number; reason: string; by: string },
): MailBody {
  const absentName = end.absent === i.side ? "you" : nameOf(i.other, i.side);
  const byTeam = end.by !== "system";
  const refund =
    end.refundCents > 0
      ? i.side === "creator"
        ? `${dollars(end.refundCents)} goes back to the card you paid with; banks usually show it within 5 to 10 business days.`
        : `${dollars(end.refundCents)} goes back to the creator.`
      : "Nothing is refunded.";
  return {
    subject: `The no-show report for ${i.booking.title} is settled`,
    preview: OUTCOME_WORDS[end.outcome](absentName),
    firstName: i.to.firstName,
    paragraphs: [
      byTeam
        ? `Our team reviewed the report for ${i.booking.title} on ${when(i)}.`
        : `Nobody contested the report for ${i.booking.title} on ${when(i)} within 48 hours, so it stands.`,
      OUTCOME_WORDS[end.outcome](absentName),
      refund,
      ...(byTeam ? ["Our team's reason:"] : []),
    ],
    ...(byTeam && { quote: end.reason }),
    details: details(i, [{ label: "Refunded", value: dollars(end.refundCents) }]),
    action: open(i, "See the booking"),
  };
}
