import { useState } from "react";
import { useQuery } from "@tanstack/react-query";
import Alert from "@mui/material/Alert";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import List from "@mui/material/List";
import ListItem from "@mui/material/ListItem";
import Typography from "@mui/material/Typography";
import DownloadIcon from "@mui/icons-material/Download";
import { monthText } from "@booking/contracts";
import { api, errorMessage } from "../shared/api-client.ts";
import { viewerLocale } from "../shared/viewer-locale.ts";
import { saveFile } from "../shared/save-file.ts";
import { statementMonthsQuery } from "./payout-queries.ts";

// The expert's monthly statements (issue 29.7): earnings, fee, refunds, transfers and payouts of a
// month, as PDF or CSV. Files come with the session's token, so they are fetched and saved (as the
// calendar invite is), not linked.

const FORMATS = [
  { ext: "pdf", label: "PDF" },
  { ext: "csv", label: "CSV" },
] as const;

export const statementPath = (month: string, ext: "pdf" | "csv") => `/experts/me/statements/${month}.${ext}`;

export function StatementDownloads({ months }: { months: string[] }) {
  const [busy, setBusy] = useState<string | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const download = async (month: string, ext: "pdf" | "csv") => {
    setBusy(`${month}.${ext}`);
    setFailure(null);
    try {
      saveFile(await api.file(statementPath(month, ext)), `statement-${month}.${ext}`);
    } catch (e) {
      setFailure(errorMessage(e));
    } finally {
      setBusy(null);
    }
  };
  return (
    <Box component="section" aria-labelledby="statements-title" sx={{ display: "grid", gap: 1 }}>
      <Typography variant="h6" component="h2" id="statements-title">
        Monthly statements
      </Typography>
      {months.length === 0 ? (
        <Typography variant="body2">Your statements will appear here once your first earning is released.</Typography>
      ) : (
        <List dense aria-labelledby="statements-title">
          {months.map((month) => {
            const name = monthText(month, viewerLocale());
            return (
              <ListItem key={month} disableGutters sx={{ gap: 1, flexWrap: "wrap" }}>
                <Typography sx={{ minWidth: 160 }}>{name}</Typography>
                {FORMATS.map((f) => (
                  <Button
                    key={f.ext}
                    size="small"
                    variant="outlined"
                    startIcon={<DownloadIcon />}
                    disabled={busy === `${month}.${f.ext}`}
                    onClick={() => void download(month, f.ext)}
                    // The name starts with the visible text (axe: label-content-name-mismatch), then says which month.
                    aria-label={`${f.label}: download the ${name} statement`}
                  >
                    {f.label}
                  </Button>
                ))}
              </ListItem>
            );
          })}
        </List>
      )}
      {failure && (
        <Typography role="alert" color="error" variant="body2">
          {failure}
        </Typography>
      )}
    </Box>
  );
}

/**
 * The statements section of the Payments tab: the months the API lists, not the months with
 * sessions (an earning is released after its clearing period, often in the month after).
 */
export function StatementsSection() {
  const months = useQuery(statementMonthsQuery());
  if (months.isPending) return <Typography variant="body2">Loading your statements…</Typography>;
  if (months.isError) return <Alert severity="error">Your statements could not be loaded.</Alert>;
  return <StatementDownloads months={months.data.months} />;
}
