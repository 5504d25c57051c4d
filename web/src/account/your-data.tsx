import { useState } from "react";
import Alert from "@mui/material/Alert";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import Typography from "@mui/material/Typography";
import DownloadIcon from "@mui/icons-material/Download";
import { api, errorMessage } from "../shared/api-client.ts";
import { saveFile } from "../shared/save-file.ts";

/** The file the download is saved as: the product's name and today's date. */
export const yourDataFileName = (today: string) => `expert-sessions-data-${today}.json`;

/** "Download your data" (issue 33.3): everything the product holds about you, as one JSON file (GET /me/export). */
export function YourData() {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const download = async () => {
    setBusy(true);
    setError(null);
    try {
      saveFile(await api.file("/me/export"), yourDataFileName(new Date().toISOString().slice(0, 10)));
    } catch (e) {
      setError(errorMessage(e));
    } finally {
      setBusy(false);
    }
  };
  return (
    <Box sx={{ display: "grid", gap: 1.5, maxWidth: 560 }}>
      <Typography color="text.secondary">
        One file with everything we hold about you: your account, bookings and their messages, reviews, the terms you accepted, the mails we
        sent you and your sign-ins.
      </Typography>
      {error && <Alert severity="error">{error}</Alert>}
      <Box>
        <Button variant="outlined" startIcon={<DownloadIcon />} onClick={download} disabled={busy}>
          {busy ? "Preparing your data…" : "Download your data"}
        </Button>
      </Box>
    </Box>
  );
}
