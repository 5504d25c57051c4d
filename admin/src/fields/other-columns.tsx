import { Labeled, useRecordContext } from "react-admin";
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

/** The record's columns (`columns`: the Record schema's keys) that the page has not placed (`shown`). */
export function OtherColumns({ columns, shown }: { columns: readonly string[]; shown: ReadonlySet<string> }) {
  return (
    <>
      {columns
        .filter((column) => !shown.has(column))
        .map((column) => (
          <Labeled key={column} label={columnLabel(column)}>
            <ColumnValue column={column} />
          </Labeled>
        ))}
    </>
  );
}
