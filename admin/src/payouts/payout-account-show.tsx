import { Box, Divider } from "@mui/material";
import { ReferenceField, Show, SimpleShowLayout, TextField, TopToolbar, useRecordContext } from "react-admin";
import { DateTimeField } from "../fields/date-time-field.tsx";
import { ExpertStatement } from "../ledger/expert-statement.tsx";
import { HoldPayoutsButton } from "./hold-payouts.tsx";
import { PayoutAccountStatusField, PayoutBalancesField, PayoutHoldField } from "./payout-account-fields.tsx";
import { expertName, type PayoutAccount } from "./payout-account-record.ts";

function PayoutAccountTitle() {
  const account = useRecordContext<PayoutAccount>();
  return <span>Payout account {account ? `· ${expertName(account)}` : ""}</span>;
}

function Statement() {
  const account = useRecordContext<PayoutAccount>();
  return account ? <ExpertStatement expertId={String(account.expert_id ?? account.id)} /> : null;
}

/** One expert's payout account, their money per currency, the hold, and their monthly statement from the ledger. */
export function PayoutAccountShow() {
  return (
    <Show
      title={<PayoutAccountTitle />}
      actions={
        <TopToolbar>
          <HoldPayoutsButton />
        </TopToolbar>
      }
    >
      <SimpleShowLayout>
        <ReferenceField source="expert_id" reference="experts" link="show" label="Expert" />
        <TextField source="email" label="Email" emptyText="—" />
        <PayoutAccountStatusField label="Payout account" />
        <TextField source="provider" label="Provider" emptyText="—" />
        <TextField source="account_id" label="Provider's account" emptyText="—" />
        <PayoutHoldField label="Payouts held" />
        <PayoutBalancesField label="Available / pending, per currency" />
        <DateTimeField source="updated_at" label="Last change" />
      </SimpleShowLayout>
      <Divider />
      <Box sx={{ p: 2 }}>
        <Statement />
      </Box>
    </Show>
  );
}
