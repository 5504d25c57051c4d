import { Alert, Box, CircularProgress, Table, TableBody, TableCell, TableRow, Typography } from "@mui/material";
import { useQuery } from "@tanstack/react-query";
import { useDataProvider } from "react-admin";
import type { ConsoleDataProvider } from "../data-provider.ts";
import { consoleMoment } from "../fields/date-time-field.tsx";
import { applicationStatusLabels, historyLabel } from "./application-record.ts";

// Time travel in an application's history (issue 30): the application as it stood just after a step, folded
// from the expert's stream by the engine up to that instant (GET /admin/applications/{id}/as-of).

export function ApplicationAsOf({ expertId, at }: { expertId: string; at: string }) {
  const dataProvider = useDataProvider<ConsoleDataProvider>();
  const { data, error, isPending } = useQuery({
    queryKey: ["applications", "as-of", expertId, at],
    queryFn: () => dataProvider.applicationAsOf(expertId, at),
  });
  if (isPending) return <CircularProgress size={20} aria-label="Folding the application's history" />;
  if (error) return <Alert severity="error">{error.message}</Alert>;
  const last = data.history.at(-1);
  const rows: [string, string][] = [
    ["Status", applicationStatusLabels[data.status]],
    ["Reason given", data.reason ?? "—"],
    ["Revision", String(data.revision)],
    ["Submitted", data.submitted_at ? consoleMoment(data.submitted_at) : "—"],
    ["May apply again from", data.may_reapply_from ? consoleMoment(data.may_reapply_from) : "—"],
    ["Expertise", data.answers?.expertise ?? "—"],
    ["Title", data.answers?.title ?? "—"],
    ["Links", data.answers?.links.join(" · ") || "—"],
    ["Steps so far", String(data.history.length)],
  ];
  return (
    <Box
      component="section"
      aria-label={`The application as it stood on ${consoleMoment(at)}`}
      data-testid="application-as-of"
      sx={{ mt: 1 }}
    >
      <Typography variant="subtitle2" component="h4">
        As it stood after {last ? historyLabel(last.type) : "its first step"} on {consoleMoment(at)}
      </Typography>
      <Table size="small" aria-label="The application then">
        <TableBody>
          {rows.map(([label, value]) => (
            <TableRow key={label}>
              <TableCell component="th" scope="row" sx={{ width: "12rem" }}>
                {label}
              </TableCell>
              <TableCell sx={{ wordBreak: "break-word" }}>{value}</TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </Box>
  );
}
