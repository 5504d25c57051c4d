import type { AdminNoShowReply, NoShowOutcome, NoShowParty } from "@booking/contracts";
import { consoleMoment } from "../fields/date-time-field.tsx";
import { formatMoney, isCurrency } from "../ledger/currency-money.tsx";

// No-shows (issue 31.1): a booking's no-show report as GET /admin/no-shows sends it (contracts' AdminNoShowReply),
// keyed by the booking's id, and the words the console uses for it.

export type NoShow = AdminNoShowReply;
export type NoShowState = NoShow["state"];
export type NoShowReport = NoShow["no_show"];

export const noShowStateLabels: Record<NoShowState, string> = {
  open: "Open to contest",
  contested: "Contested",
  settled: "Settled",
};

/** The filter's choices, the queue an admin acts on first. */
export const noShowStateChoices: { id: NoShowState; name: string }[] = [
  { id: "contested", name: "Contested (to decide)" },
  { id: "open", name: "Open to contest" },
  { id: "settled", name: "Settled" },
];

/** The list opens on the contested reports: the ones waiting for an admin. */
export const NO_SHOW_QUEUE: NoShowState[] = ["contested"];

/** "expert" → "the expert". */
export const partyText = (party: NoShowParty) => `the ${party}`;

/** The party who reported: the other one. */
export const reporterOf = (absent: NoShowParty): NoShowParty => (absent === "expert" ? "creator" : "expert");

export const outcomeLabels: Record<NoShowOutcome, string> = {
  expert_no_show: "Upheld: the expert did not show",
  creator_no_show: "Upheld: the creator did not show",
  completed: "Not upheld: the session counts as held",
};

/** What the booking ends as when an admin decides, in words. */
export const decisionOutcomeText = (upheld: boolean, absent: NoShowParty) =>
  upheld ? `the booking ends as ${partyText(absent)}'s no-show` : "the booking completes as held";

/** What an uncontested report does when it stands (the engine's rule). */
export const standsText = (absent: NoShowParty) =>
  absent === "expert" ? "everything paid goes back to the creator" : "the expert keeps the payment";

/** Rule (the engine's): an admin may refund any part of what was paid and is not already owed back. */
export const refundableOf = (n: Pick<NoShow, "paid_cents" | "refund_due_cents">) => Math.max(0, n.paid_cents - n.refund_due_cents);

/** Minor units in the record's currency ("USD 12.50"); with the code after the bare number for a currency the console does not know. */
export const moneyText = (cents: number, currency: string) =>
  isCurrency(currency)
    ? formatMoney(cents, currency)
    : `${(cents / 10 ** minorDigits(currency)).toFixed(minorDigits(currency))} ${currency}`;

const HOUR_MS = 3_600_000;

/** How long until an instant, in the console's words: "in 5 hours", "in under an hour", "overdue". */
export function deadlineText(at: string, now: number = Date.now()): string {
  const left = Date.parse(at) - now;
  if (!Number.isFinite(left)) return "—";
  if (left <= 0) return "overdue";
  const hours = Math.floor(left / HOUR_MS);
  if (hours < 1) return "in under an hour";
  return hours === 1 ? "in 1 hour" : `in ${hours} hours`;
}

/** The contest deadline of a row as the list writes it: the moment, and what it means for the report's state. */
export function contestDeadlineText(n: Pick<NoShow, "state" | "no_show">, now: number = Date.now()): string {
  const report = n.no_show as NoShowReport | undefined;
  if (!report?.contest_by) return "—";
  const moment = consoleMoment(report.contest_by);
  if (n.state === "contested") return `${moment} · contested`;
  if (n.state === "settled") return `${moment} · settled`;
  return `${moment} · ${deadlineText(report.contest_by, now)}`;
}

/** The digits after the point of an amount of `currency` (2 for every currency the product takes). */
export function minorDigits(currency: string): number {
  try {
    return new Intl.NumberFormat("en", { style: "currency", currency }).resolvedOptions().maximumFractionDigits ?? 2;
  } catch {
    return 2;
  }
}

/**
 * An amount typed in the currency's units ("12", "12.5", "12,50") as whole minor units (1250); null when it is
 * not one (negative, more decimals than the currency has, not a number).
 */
export function centsFromText(text: string, currency: string): number | null {
  const digits = minorDigits(currency);
  const match = /^(\d{1,9})(?:[.,](\d*))?$/.exec(text.trim());
  if (!match) return null;
  const fraction = match[2] ?? "";
  if (fraction.length > digits) return null;
  return Number(match[1]) * 10 ** digits + Number(fraction.padEnd(digits, "0") || "0");
}

/** Minor units as the amount field takes them back: 1250 → "12.50". */
export const textFromCents = (cents: number, currency: string) => (cents / 10 ** minorDigits(currency)).toFixed(minorDigits(currency));

/** Where a report stands (the API's rule for the list's `state`): settled once it has an outcome, else contested or open. */
export const stateOf = (report: Pick<NoShowReport, "outcome" | "contested">): NoShowState =>
  report.outcome !== null ? "settled" : report.contested ? "contested" : "open";

/** The booking statuses a report that stood gives. */
export const isNoShowStatus = (status: string) => status === "expert_no_show" || status === "creator_no_show";
