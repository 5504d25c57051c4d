import PlayArrowIcon from "@mui/icons-material/PlayArrow";
import { Alert } from "@mui/material";
import { useMutation } from "@tanstack/react-query";
import { Button, useDataProvider, useNotify, useRefresh } from "react-admin";
import { consoleMoment } from "../fields/date-time-field.tsx";
import type { ReconciliationRun } from "./difference-record.ts";

/** The path of an on-demand run, as a resource of the data provider (POST /admin/reconciliation/run). */
export const RUN_PATH = "reconciliation/run";

/** What a run found, in a sentence. */
export function runSummary(run: ReconciliationRun): string {
  const found =
    run.difference_count === 0 ? "no differences" : `${run.difference_count} difference${run.difference_count === 1 ? "" : "s"}`;
  const compared = `${run.ledger_count} ledger and ${run.provider_count} provider (${run.provider}) movements compared`;
  return `Run at ${consoleMoment(run.at, "seconds")}: ${found}; ${compared}.${run.complete ? "" : " The run did not finish."}`;
}

/** What the run just made found, above the list of differences. */
export function RunOutcome({ run }: { run: ReconciliationRun | undefined }) {
  if (!run) return null;
  return (
    <Alert severity={run.difference_count === 0 && run.complete ? "success" : "warning"} sx={{ mb: 1 }} data-testid="reconciliation-run">
      {runSummary(run)}
      {run.note ? ` ${run.note}` : ""}
    </Alert>
  );
}

/** "Run reconciliation now": compares the ledger with the provider at once, then shows the new run's differences. */
export function RunReconciliationButton({ onRun }: { onRun: (run: ReconciliationRun) => void }) {
  const dataProvider = useDataProvider();
  const notify = useNotify();
  const refresh = useRefresh();
  const run = useMutation({
    mutationFn: async () => (await dataProvider.create(RUN_PATH, { data: {} })).data as unknown as ReconciliationRun,
    onSuccess: (done) => {
      onRun(done);
      refresh();
    },
    onError: (error) => notify(error instanceof Error ? error.message : "The reconciliation did not run.", { type: "error" }),
  });
  return (
    <Button label="Run reconciliation now" onClick={() => run.mutate()} disabled={run.isPending} variant="contained">
      <PlayArrowIcon />
    </Button>
  );
}
