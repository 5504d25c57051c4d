import DownloadIcon from "@mui/icons-material/Download";
import { useState } from "react";
import { Button, useDataProvider, useListContext, useNotify, useResourceContext } from "react-admin";
import type { ConsoleDataProvider } from "../data-provider.ts";
import { exportFileStem } from "./list-exporter.ts";

/** Save a blob as a file, the way a link with `download` does. */
export function saveFile(blob: Blob, name: string): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement("a");
  link.href = url;
  link.download = name;
  document.body.append(link);
  link.click();
  link.remove();
  // Give the browser time to start the download before the URL goes.
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/** Downloads the server's CSV of every record of the list's resource matching its current filters and sort. */
export function ExportCsvButton() {
  const resource = useResourceContext() ?? "";
  const { filterValues, sort, total } = useListContext();
  const dataProvider = useDataProvider<ConsoleDataProvider>();
  const notify = useNotify();
  const [busy, setBusy] = useState(false);

  const exportCsv = async () => {
    setBusy(true);
    try {
      const csv = await dataProvider.exportCsv(resource, { filter: filterValues, sort });
      saveFile(csv, `${exportFileStem(resource)}.csv`);
    } catch (error) {
      notify(error instanceof Error ? error.message : "The export failed.", { type: "error" });
    } finally {
      setBusy(false);
    }
  };

  return (
    <Button label="Export CSV" onClick={() => void exportCsv()} disabled={busy || total === 0}>
      <DownloadIcon />
    </Button>
  );
}
