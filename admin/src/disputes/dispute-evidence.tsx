import DownloadIcon from "@mui/icons-material/Download";
import { useMutation } from "@tanstack/react-query";
import { Button, useDataProvider, useNotify, useRecordContext } from "react-admin";
import type { ConsoleDataProvider } from "../data-provider.ts";
import { saveFile } from "../layout/export-csv-button.tsx";
import type { Dispute } from "./dispute-record.ts";

// A dispute's evidence as one document to submit to the provider (issue 31.2): the API writes the booking's history
// (the request, its acceptance, the creator's prep answers, the join link, no-show reports, messages) into a PDF.

/** The file a dispute's evidence is saved as. */
export const evidenceFileName = (disputeId: string) => `dispute-${disputeId.replace(/[^\w.-]+/g, "_")}-evidence.pdf`;

/** Downloads the record's dispute evidence (GET /admin/disputes/{id}/evidence.pdf) and saves it. */
export function DisputeEvidenceButton() {
  const record = useRecordContext<Dispute>();
  const dataProvider = useDataProvider<ConsoleDataProvider>();
  const notify = useNotify();
  const download = useMutation({
    mutationFn: async (disputeId: string) => saveFile(await dataProvider.disputeEvidence(disputeId), evidenceFileName(disputeId)),
    onError: (error) => notify(error instanceof Error ? error.message : "The evidence could not be downloaded.", { type: "error" }),
  });
  if (!record) return null;
  return (
    <Button label="Download evidence (PDF)" onClick={() => download.mutate(String(record.id))} disabled={download.isPending}>
      <DownloadIcon />
    </Button>
  );
}
