import { DataTable, FunctionField, List, NullableBooleanInput, SelectArrayInput } from "react-admin";
import { listExporter } from "../layout/list-exporter.ts";
import { HoldPayoutsButton } from "./hold-payouts.tsx";
import { PayoutAccountStatusField, PayoutBalancesField, PayoutHoldField } from "./payout-account-fields.tsx";
import { expertName, payoutAccountStatusChoices, type PayoutAccount } from "./payout-account-record.ts";

const filters = [
  <SelectArrayInput key="status" source="status" label="Payout account" choices={payoutAccountStatusChoices} alwaysOn />,
  <NullableBooleanInput key="held" source="held" label="Payouts held" alwaysOn />,
];

const Column = DataTable.Col<PayoutAccount>;

/** Every expert's payout account: connected or not, held (and why), what is available and pending per currency. */
export function PayoutAccountList() {
  return (
    <List filters={filters} sort={{ field: "name", order: "ASC" }} perPage={25} title="Payout accounts" exporter={listExporter}>
      <DataTable rowClick="show" bulkActionButtons={false}>
        <Column source="name" label="Expert">
          <FunctionField<PayoutAccount> render={expertName} />
        </Column>
        <Column source="status" label="Payout account">
          <PayoutAccountStatusField />
        </Column>
        <Column source="held" label="Payouts held">
          <PayoutHoldField />
        </Column>
        <Column label="Available / pending, per currency" disableSort>
          <PayoutBalancesField />
        </Column>
        <Column label="Actions" disableSort>
          <HoldPayoutsButton />
        </Column>
      </DataTable>
    </List>
  );
}
