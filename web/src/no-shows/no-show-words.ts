import { NO_SHOW_CONTEST_HOURS, type NoShowOutcome, type NoShowParty } from "@booking/contracts";
import type { Booking } from "../shared/api-types.ts";
import { currencyOf, moneyText } from "../shared/money.ts";

// What a no-show report says, in words, to whoever reads it: the reporter, the person reported
// absent, or an admin looking on (`viewer` null).

type Named = Pick<Booking, "creator_name" | "expert_name">;

/** A party by name: "Maya Lind", or "the expert" when the reply carries no name. */
export const partyName = (b: Named, party: NoShowParty): string =>
  (party === "creator" ? b.creator_name : b.expert_name) ?? (party === "creator" ? "the creator" : "the expert");

/** A party as `viewer` speaks of them: "you", or their name. */
const called = (b: Named, party: NoShowParty, viewer: NoShowParty | null) => (party === viewer ? "you" : partyName(b, party));

const capitalised = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

/** The report dialog's title: "Report that Maya Lind did not join". */
export const reportTitle = (b: Named, reporter: NoShowParty): string =>
  `Report that ${partyName(b, reporter === "creator" ? "expert" : "creator")} did not join`;

/** What the report leads to, told to the one reporting, before they report. */
export function reportConsequence(b: Named, reporter: NoShowParty): string {
  const absent = partyName(b, reporter === "creator" ? "expert" : "creator");
  const gain = reporter === "creator" ? "you are refunded in full" : "you keep the payment";
  return `If ${absent} does not contest within ${NO_SHOW_CONTEST_HOURS} hours, ${gain}. If they contest, our team reviews the report and decides.`;
}

/** "You reported that Maya Lind did not join." / "Cora Quinn reported that you did not join." */
export function reportedLine(b: Named, absent: NoShowParty, viewer: NoShowParty | null): string {
  const reporter: NoShowParty = absent === "creator" ? "expert" : "creator";
  return `${capitalised(called(b, reporter, viewer))} reported that ${called(b, absent, viewer)} did not join.`;
}

/** What an uncontested report leads to, as the parties read it while it is open (after the deadline, said before it). */
export function uncontestedLine(b: Named, absent: NoShowParty, viewer: NoShowParty | null): string {
  const stands =
    absent === "expert"
      ? `${called(b, "creator", viewer)} will be refunded in full`
      : `${called(b, "expert", viewer)} will keep the payment`;
  const who = absent === viewer ? "you do not" : `${partyName(b, absent)} does not`;
  return `If ${who} contest by then, ${stands}.`;
}

/** The outcome of a settled report in words: who did not show, or that the session counts as held. */
export function outcomeLine(b: Named, outcome: NoShowOutcome, viewer: NoShowParty | null): string {
  if (outcome === "completed") return "The session counts as held: the report was not upheld.";
  const absent: NoShowParty = outcome === "expert_no_show" ? "expert" : "creator";
  return `${capitalised(called(b, absent, viewer))} did not show: the report was upheld.`;
}

/** The refund of a settled report, in the booking's currency: "Refund: $60 of the $120 paid." */
export function refundLine(b: Pick<Booking, "paid_cents" | "currency">, refundCents: number): string {
  const money = (cents: number) => moneyText(cents, currencyOf(b), { short: true });
  if (refundCents <= 0) return b.paid_cents > 0 ? `No refund: the ${money(b.paid_cents)} paid stays with the expert.` : "No refund.";
  if (refundCents >= b.paid_cents) return `Refund: the full ${money(refundCents)} paid.`;
  return `Refund: ${money(refundCents)} of the ${money(b.paid_cents)} paid.`;
}
