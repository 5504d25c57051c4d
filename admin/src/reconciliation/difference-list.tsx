import { Chip, Stack, Typography } from "@mui/material";
import { useState } from "react";
import {
  DataTable,
  FunctionField,
  List,
  ReferenceField,
  SelectArrayInput,
  TopToolbar,
  ExportButton,
  useListContext,
  useRecordContext,
} from "react-admin";
import { consoleMoment } from "../fields/date-time-field.tsx";
import { listExporter } from "../layout/list-exporter.ts";
import { CurrencyMoneyField } from "../ledger/currency-money.tsx";
import {
  differenceKindChoices,
  differenceKindLabels,
  movementChoices,
  movementLabels,
  type Difference,
  type ReconciliationRun,
} from "./difference-record.ts";
import { RunOutcome, RunReconciliationButton } from "./run-reconciliation.tsx";

// The reconciliation (issue 29.6): the latest run's differences between the ledger and the payment
// provider (missing, extra, or different amounts), and a button that runs it now.

const filters = [
  <SelectArrayInput key="kind" source="kind" label="Difference" choices={differenceKindChoices} alwaysOn />,
  <SelectArrayInput key="movement" source="movement" label="Movement" choices={movementChoices} alwaysOn />,
];

function KindField(_props: { label?: string }) {
  const difference = useRecordContext<Difference>();
  if (!difference) return null;
  const known = Object.hasOwn(differenceKindLabels, difference.kind);
  return (
    <Chip
      size="small"
      color={difference.kind === "amount" ? "warning" : "error"}
      label={known ? differenceKindLabels[difference.kind] : String(difference.kind)}
      data-testid={`difference-${String(difference.kind)}`}
    />
  );
}

/** The booking the difference is about, or the expert for a payout. */
function RefField(_props: { label?: string }) {
  const difference = useRecordContext<Difference>();
  if (!difference?.ref) return <span>—</span>;
  const reference = difference.movement === "payout" ? "payout-accounts" : "bookings";
  return (
    <ReferenceField
      record={{ id: difference.id, ref: difference.ref }}
      source="ref"
      reference={reference}
      link="show"
      emptyText={difference.ref}
    />
  );
}

/** Which run the list shows, or that the latest run found nothing. */
function RunHeading() {
  const { data, isPending, filterValues } = useListContext<Difference>();
  if (isPending) return null;
  const first = data?.[0];
  const filtered = Object.keys(filterValues ?? {}).length > 0;
  return (
    <Typography variant="body2" sx={{ mx: 2, my: 1 }} data-testid="reconciliation-heading">
      {first
        ? `Differences found by the run at ${consoleMoment(first.run_at, "seconds")} (run ${first.run_id}).`
        : filtered
          ? "No differences of these kinds in the latest run."
          : "No differences in the latest run (or no run yet): the ledger and the provider agree."}
    </Typography>
  );
}

function Actions({ onRun }: { onRun: (run: ReconciliationRun) => void }) {
  return (
    <TopToolbar>
      <RunReconciliationButton onRun={onRun} />
      <ExportButton />
    </TopToolbar>
  );
}

const Column = DataTable.Col<Difference>;

export function DifferenceList() {
  const [run, setRun] = useState<ReconciliationRun>();
  return (
    <List
      filters={filters}
      sort={{ field: "n", order: "ASC" }}
      perPage={50}
      title="Reconciliation"
      exporter={listExporter}
      actions={<Actions onRun={setRun} />}
      empty={false}
    >
      <Stack>
        <RunOutcome run={run} />
        <RunHeading />
      </Stack>
      <DataTable bulkActionButtons={false} rowClick={false}>
        <Column source="n" label="#" align="right" />
        <Column source="kind" label="Difference">
          <KindField />
        </Column>
        <Column source="movement" label="Movement">
          <FunctionField<Difference> render={(d) => movementLabels[d.movement] ?? String(d.movement ?? "—")} />
        </Column>
        <Column source="ref" label="Booking or expert">
          <RefField />
        </Column>
        <Column source="ledger_cents" label="In the ledger" align="right" disableSort>
          <CurrencyMoneyField source="ledger_cents" />
        </Column>
        <Column source="provider_cents" label="At the provider" align="right" disableSort>
          <CurrencyMoneyField source="provider_cents" />
        </Column>
        <Column source="what" label="What" disableSort />
      </DataTable>
    </List>
  );
}
