import { PayoutAccountState, type AdminPayoutAccountReply } from "@booking/contracts";

// GET /admin/payout-accounts (issue 29.2): one record per expert (id = the expert's id), their
// payout account's status, an admin's hold and its reason, and per currency what is pending and available.

export type PayoutAccount = AdminPayoutAccountReply;

export const payoutAccountStatusLabels: Record<PayoutAccountState, string> = {
  none: "Not connected",
  incomplete: "Onboarding incomplete",
  enabled: "Payouts enabled",
};

export const payoutAccountStatusChoices = PayoutAccountState.options.map((id) => ({ id, name: payoutAccountStatusLabels[id] }));

/** The expert as the console names them: their name, else their email, else their id. */
export const expertName = (a: Pick<PayoutAccount, "id" | "name" | "email">) => a.name || a.email || String(a.id);
