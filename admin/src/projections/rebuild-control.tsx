import RefreshIcon from "@mui/icons-material/Refresh";
import { Alert, Box, LinearProgress, Stack, Typography } from "@mui/material";
import { useMutation } from "@tanstack/react-query";
import type React from "react";
import { useEffect, useRef, useState } from "react";
import { Button, useDataProvider, useNotify, useRefresh } from "react-admin";
import type { ConsoleDataProvider } from "../data-provider.ts";
import { consoleMoment } from "../fields/date-time-field.tsx";
import { ConfirmDialog } from "../layout/confirm-dialog.tsx";
import { useWatchedProjection } from "./projection-generations.tsx";
import type { RebuildProgress } from "./projection-record.ts";

function Progress({ rebuild }: { rebuild: RebuildProgress }) {
  const percent = rebuild.total > 0 ? Math.min(100, (rebuild.done / rebuild.total) * 100) : rebuild.state === "done" ? 100 : 0;
  if (rebuild.state === "failed") {
    return (
      <Alert severity="error" sx={{ py: 0 }} data-testid="rebuild-failed">
        Rebuild failed: {rebuild.error ?? "unknown error"}
      </Alert>
    );
  }
  if (rebuild.state === "done") {
    return (
      <Typography variant="body2" color="success.main" data-testid="rebuild-done">
        Rebuilt from {rebuild.total} events{rebuild.finished_at ? ` at ${consoleMoment(rebuild.finished_at)}` : ""}
      </Typography>
    );
  }
  return (
    <Box data-testid="rebuild-running" sx={{ minWidth: 180 }}>
      <LinearProgress variant={rebuild.total ? "determinate" : "indeterminate"} value={percent} aria-label="Rebuild progress" />
      <Typography variant="caption" color="text.secondary">
        Rebuilding: {rebuild.done} / {rebuild.total || "?"} events
        {rebuild.eventsPerSecond ? ` · ${rebuild.eventsPerSecond}/s` : ""}
        {rebuild.secondsLeft !== null ? ` · ~${rebuild.secondsLeft}s left` : ""}
      </Typography>
    </Box>
  );
}

/**
 * Rebuild one read model from the event store into a new generation (the live one keeps serving),
 * then poll GET /admin/projections/{name} until the rebuild is done or failed, showing its
 * progress; the list is refreshed when it ends.
 */
export function RebuildControl(_props: { label?: string }) {
  const current = useWatchedProjection();
  const dataProvider = useDataProvider<ConsoleDataProvider>();
  const notify = useNotify();
  const refresh = useRefresh();
  const name = current?.id ?? "";
  const state = current?.rebuild?.state;
  const wasRunning = useRef(false);
  const [asking, setAsking] = useState(false);

  useEffect(() => {
    if (state === "running") wasRunning.current = true;
    else if (wasRunning.current && state) {
      wasRunning.current = false;
      notify(state === "done" ? `Read model ${name} rebuilt.` : `Rebuilding ${name} failed.`, {
        type: state === "done" ? "success" : "error",
      });
      refresh();
    }
  }, [state, name, notify, refresh]);

  const start = useMutation({
    mutationFn: () => dataProvider.rebuildProjection(name),
    onSuccess: () => refresh(),
    onError: (error) => notify(error instanceof Error ? error.message : "The rebuild could not start.", { type: "error" }),
  });

  if (!current) return null;
  const onClick = (event: React.MouseEvent) => {
    event.stopPropagation();
    setAsking(true);
  };
  const confirmed = () => {
    setAsking(false);
    start.mutate();
  };
  return (
    <Stack direction="row" spacing={2} sx={{ alignItems: "center" }} onClick={(e) => e.stopPropagation()}>
      <Button
        label="Rebuild"
        onClick={onClick}
        disabled={start.isPending || state === "running"}
        variant="outlined"
        aria-label={`Rebuild ${name}`}
      >
        <RefreshIcon />
      </Button>
      {current?.rebuild ? <Progress rebuild={current.rebuild} /> : null}
      <ConfirmDialog
        open={asking}
        title={`Rebuild ${name}?`}
        explanation={
          "The read model is rebuilt from the event store into a new generation while the live one keeps serving; " +
          "a large one takes a while and loads the database."
        }
        confirmLabel="Rebuild"
        onCancel={() => setAsking(false)}
        onConfirm={confirmed}
      />
    </Stack>
  );
}
