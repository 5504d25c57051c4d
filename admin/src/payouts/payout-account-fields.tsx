import { Chip, Stack, Typography, type ChipProps } from "@mui/material";
import { useRecordContext } from "react-admin";
import { formatMoney, isCurrency } from "../ledger/currency-money.tsx";
import type { PayoutAccountState } from "@booking/contracts";
import { payoutAccountStatusLabels, type PayoutAccount } from "./payout-account-record.ts";

const statusColors: Record<PayoutAccountState, ChipProps["color"]> = { none: "default", incomplete: "warning", enabled: "success" };

/** Not connected, onboarding incomplete, or payouts enabled. */
export function PayoutAccountStatusField(_props: { label?: string; source?: string; sortable?: boolean }) {
  const account = useRecordContext<PayoutAccount>();
  if (!account) return null;
  const status = account.status;
  const known = Object.hasOwn(payoutAccountStatusLabels, status);
  return (
    <Chip
      size="small"
      color={known ? statusColors[status] : "default"}
      label={known ? payoutAccountStatusLabels[status] : String(status)}
      data-testid={`payout-account-${String(status)}`}
    />
  );
}

/** "Held" and the admin's reason, or nothing while payouts are paid. */
export function PayoutHoldField(_props: { label?: string; source?: string; sortable?: boolean }) {
  const account = useRecordContext<PayoutAccount>();
  if (!account?.held) return <span>—</span>;
  return (
    <Stack spacing={0.5} data-testid="payouts-held">
      <Chip size="small" color="error" label="Held" sx={{ alignSelf: "flex-start" }} />
      <Typography variant="body2">{account.held_reason || "No reason recorded"}</Typography>
    </Stack>
  );
}

/** Per currency, on its own line: what is available and what is pending; no amount is added across currencies. */
export function PayoutBalancesField(_props: { label?: string; source?: string; sortable?: boolean }) {
  const account = useRecordContext<PayoutAccount>();
  const balances = Array.isArray(account?.balances) ? account.balances.filter((b) => isCurrency(b.currency)) : [];
  if (balances.length === 0) return <span>—</span>;
  return (
    <Stack spacing={0.25} data-testid="payout-balances">
      {balances.map((b) => (
        <Typography key={b.currency} variant="body2" data-currency={b.currency}>
          {formatMoney(b.available_cents, b.currency)} available · {formatMoney(b.pending_cents, b.currency)} pending
        </Typography>
      ))}
    </Stack>
  );
}
