import { Box, Typography } from "@mui/material";
import { useRecordContext } from "react-admin";
import { DateTimeField } from "./date-time-field.tsx";
import { JsonField } from "./json-payload.tsx";
import { MoneyField } from "./money-field.tsx";

// An audit console shows every column of a read model. A page places the columns it knows
// with care; this shows the rest as they are, so a column added to the read model (its zod
// Record in contracts) appears here without an edit to the console.

const ISO_INSTANT = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$/;

/** confirmed_at → "Confirmed at". */
export const columnLabel = (column: string) => column.charAt(0).toUpperCase() + column.slice(1).replaceAll("_", " ");

function ColumnValue({ column }: { column: string }) {
  const value: unknown = useRecordContext()?.[column];
  if (value === null || value === undefined || value === "") return <span>—</span>;
  if (column.endsWith("_cents")) return <MoneyField source={column} />;
  if (typeof value === "string" && ISO_INSTANT.test(value)) return <DateTimeField source={column} />;
  if (typeof value === "object") return <JsonField source={column} />;
  return <span>{String(value)}</span>;
}

/** Labels in a column as wide as the longest, values beside them. */
const pairs = { display: "grid", gridTemplateColumns: "minmax(8rem, max-content) minmax(0, 1fr)", columnGap: 2, rowGap: 1, m: 0 };

/**
 * The record's columns (`columns`: the Record schema's keys) that the page has not placed (`shown`),
 * as label/value pairs in two columns: one SimpleShowLayout row holds them all, where Labeled
 * fields ran their labels into each other (issue 27.20).
 */
export function OtherColumns({ columns, shown }: { label?: string; columns: readonly string[]; shown: ReadonlySet<string> }) {
  return (
    <Box component="dl" data-testid="other-columns" sx={pairs}>
      {columns
        .filter((column) => !shown.has(column))
        .flatMap((column) => [
          <Typography key={`${column}-label`} component="dt" variant="body2" color="text.secondary">
            {columnLabel(column)}
          </Typography>,
          <Box key={`${column}-value`} component="dd" sx={{ m: 0, overflowWrap: "anywhere" }}>
            <ColumnValue column={column} />
          </Box>,
        ])}
    </Box>
  );
}
