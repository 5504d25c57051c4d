import DownloadIcon from "@mui/icons-material/Download";
import { useMutation } from "@tanstack/react-query";
import { Button, useDataProvider, useNotify, useRecordContext } from "react-admin";
import type { ConsoleDataProvider } from "../data-provider.ts";
import { saveFile } from "../layout/export-csv-button.tsx";
import type { User } from "./user-record.ts";

// A user's data on their request (issue 33.3): everything the product holds about them as one JSON
// document, the same file they download themselves from their account page.

/** The file a user's data is saved as. */
export const userDataFileName = (userId: string) => `user-${userId.replace(/[^\w.-]+/g, "_")}-data.json`;

export function UserDataExportButton() {
  const record = useRecordContext<User>();
  const dataProvider = useDataProvider<ConsoleDataProvider>();
  const notify = useNotify();
  const download = useMutation({
    mutationFn: async (userId: string) => saveFile(await dataProvider.userDataExport(userId), userDataFileName(userId)),
    onError: (error) => notify(error instanceof Error ? error.message : "The user's data could not be downloaded.", { type: "error" }),
  });
  if (!record) return null;
  return (
    <Button label="Download the user's data (JSON)" onClick={() => download.mutate(String(record.id))} disabled={download.isPending}>
      <DownloadIcon />
    </Button>
  );
}
