import { csvLine } from "@booking/contracts";
import { downloadCSV, type Exporter, type RaRecord } from "react-admin";

// The Export button of every list: the records as the API sent them, as a CSV written by the
// same rule as the API's export.csv (contracts' csvField), so a name or title a user typed as a
// formula opens in the admin's spreadsheet as text. react-admin's default exporter writes cells raw.

/** An export's file name without `.csv`: the resource and today's date (the server's exports are saved so too). */
export const exportFileStem = (resource: string) => `${resource}-${new Date().toISOString().slice(0, 10)}`;

/** A field's text: as sent; an object (an event's payload) as its JSON; nothing for null. */
function fieldText(value: unknown): string | null {
  if (value === null || value === undefined) return null;
  return typeof value === "object" ? JSON.stringify(value) : String(value);
}

/** The records as CSV: a column per field any of them has, in the order first seen. */
export function recordsCsv(records: readonly RaRecord[]): string {
  const columns = [...new Set(records.flatMap((record) => Object.keys(record)))];
  return csvLine(columns) + records.map((record) => csvLine(columns.map((column) => fieldText(record[column])))).join("");
}

/** The exporter of every list with an Export button (each List's `exporter`). */
export const listExporter: Exporter = (records: RaRecord[], _fetchRelatedRecords, _dataProvider, resource = "export") =>
  downloadCSV(recordsCsv(records), exportFileStem(resource));
