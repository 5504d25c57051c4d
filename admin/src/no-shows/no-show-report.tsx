import { Box, Typography } from "@mui/material";
import type { ReactNode } from "react";
import { ReferenceField, TextField } from "react-admin";
import type { NoShowReply } from "@booking/contracts";
import { consoleMoment } from "../fields/date-time-field.tsx";
import { deadlineText, moneyText, outcomeLabels, partyText, reporterOf, standsText } from "./no-show-record.ts";

// A booking's no-show report in words (issue 31.1): who reported whom and why, the contest or when the report
// stands without one, and how it was settled. The report's page and the booking's page both show it.

/** Labels in a column as wide as the longest, values beside them. */
const pairs = { display: "grid", gridTemplateColumns: "minmax(8rem, max-content) minmax(0, 1fr)", columnGap: 2, rowGap: 1, m: 0 };

/** Label/value pairs as a definition list. */
export function Pairs({ rows, testId }: { rows: [string, ReactNode][]; testId?: string }) {
  return (
    <Box component="dl" sx={pairs} data-testid={testId}>
      {rows.flatMap(([label, value]) => [
        <Typography key={`${label}-label`} component="dt" variant="body2" color="text.secondary">
          {label}
        </Typography>,
        <Box key={`${label}-value`} component="dd" sx={{ m: 0, whiteSpace: "pre-line", overflowWrap: "anywhere" }}>
          {value}
        </Box>,
      ])}
    </Box>
  );
}

const capital = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

/** A note as typed, or that there was none. */
const noteText = (note: string | null) => (note?.trim() ? `“${note.trim()}”` : "No note.");

/** Who reported whom, when, and their note. */
export function reportRows(report: NoShowReply): [string, ReactNode][] {
  const by = reporterOf(report.absent);
  return [
    ["Reported", `${capital(partyText(by))} reported ${partyText(report.absent)} absent, ${consoleMoment(report.reported_at)}.`],
    ["Their note", noteText(report.note)],
  ];
}

/** The contest, or when the report stands without one. */
export function contestRows(report: NoShowReply, now: number = Date.now()): [string, ReactNode][] {
  if (report.contested) {
    const when = report.contested_at ? `, ${consoleMoment(report.contested_at)}` : "";
    return [
      ["Contested", `${capital(partyText(report.absent))} contested the report${when}.`],
      ["Their note", noteText(report.contest_note)],
    ];
  }
  if (report.outcome !== null) return [["Contested", "No: the report was not contested."]];
  const left = deadlineText(report.contest_by, now);
  return [
    ["Contested", `Not contested; stands automatically at ${consoleMoment(report.contest_by)} (${left}): ${standsText(report.absent)}.`],
  ];
}

/** Who settled the report: the system (not contested in time) or the deciding admin, linked to their account. */
function DecidedBy({ report }: { report: NoShowReply }) {
  if (report.decided_by === "system") return <span>Automatically: the report was not contested in time</span>;
  if (!report.decided_by) return <span>—</span>;
  return (
    <ReferenceField
      record={{ id: report.decided_by, decided_by: report.decided_by }}
      source="decided_by"
      reference="users"
      link="show"
      emptyText={report.decided_by}
    >
      <TextField source="email" />
    </ReferenceField>
  );
}

/** How a settled report ended: the outcome, the refund, the reason both people read, who decided and when. */
export function outcomeRows(report: NoShowReply, currency: string): [string, ReactNode][] {
  if (report.outcome === null) return [];
  const refund = report.refund_cents ?? 0;
  const reason = report.decided_by === "system" ? "Not contested: the report stood." : (report.reason ?? "—");
  return [
    ["Outcome", outcomeLabels[report.outcome] ?? report.outcome],
    ["Refund", refund > 0 ? `${moneyText(refund, currency)} to the creator` : "None"],
    ["Reason", reason],
    ["Decided by", <DecidedBy key="decided-by" report={report} />],
    ["Settled", report.settled_at ? consoleMoment(report.settled_at) : "—"],
  ];
}
