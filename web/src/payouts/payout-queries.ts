import { queryOptions } from "@tanstack/react-query";
import type {
  ExpertBalanceReply,
  ExpertPayoutsReply,
  PayoutAccountReply,
  PayoutOnboardingReply,
  StatementMonthsReply,
} from "@booking/contracts";
import { api } from "../shared/api-client.ts";

// The signed-in expert's payout account, balance and payouts (issue 29.2-29.4): /experts/me only,
// so an admin looking at an expert's dashboard sees their earnings, and their payouts in the console.

/** Everything payouts read lives under this key: a payout asked for or an onboarding finished refreshes them all. */
export const PAYOUTS_KEY = ["payouts"] as const;

export const payoutAccountQuery = () =>
  queryOptions({
    queryKey: [...PAYOUTS_KEY, "account"],
    queryFn: ({ signal }) => api.get<PayoutAccountReply>("/experts/me/payout-account", { signal }),
    staleTime: 0,
  });

export const balanceQuery = () =>
  queryOptions({
    queryKey: [...PAYOUTS_KEY, "balance"],
    queryFn: ({ signal }) => api.get<ExpertBalanceReply>("/experts/me/balance", { signal }),
    staleTime: 0,
  });

export const payoutsQuery = () =>
  queryOptions({
    queryKey: [...PAYOUTS_KEY, "list"],
    queryFn: ({ signal }) => api.get<ExpertPayoutsReply>("/experts/me/payouts", { signal }),
    staleTime: 0,
  });

/** The months the expert has a statement for: from their first released earning to this month. */
export const statementMonthsQuery = () =>
  queryOptions({
    queryKey: [...PAYOUTS_KEY, "statements"],
    queryFn: ({ signal }) => api.get<StatementMonthsReply>("/experts/me/statements", { signal }),
  });

/** Where connecting (or finishing) the payout account goes on: the provider's onboarding, or the test provider's page in this app. */
export async function startOnboarding(go: (url: string) => void): Promise<void> {
  const { onboarding_url } = await api.post<PayoutOnboardingReply>("/experts/me/payout-account");
  go(onboarding_url);
}

/** An address in this app opens in it (the test onboarding); any other (Stripe's) replaces the page. */
export function openOnboarding(url: string, navigate: (to: string) => void): void {
  const target = new URL(url, window.location.origin);
  if (target.origin === window.location.origin) navigate(`${target.pathname}${target.search}`);
  else window.location.assign(target.href);
}
