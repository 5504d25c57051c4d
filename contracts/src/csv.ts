// A CSV file's cells, written the same way by the API's export.csv routes and the console's
// Export buttons: text a user typed must open in a spreadsheet as text, never run as a formula.

/**
 * What a spreadsheet may take for the start of a formula (CSV injection): = + - @, tab, CR, LF and
 * NUL, and the full-width = + - @ that some spreadsheets read as the ASCII ones.
 */
const FORMULA_START = /^[=+\-@\t\r\n\0\uFF1D\uFF0B\uFF0D\uFF20]/;
/** A plain negative number ("-12", "-0.5") is no formula: left as it is, it stays a number in the sheet. */
const NEGATIVE_NUMBER = /^-\d+(\.\d+)?$/;

/** The cell's text as a spreadsheet should show it: a formula's start gets a leading ' (the sheet shows the text, not a result). */
export function spreadsheetText(value: string): string {
  return FORMULA_START.test(value) && !NEGATIVE_NUMBER.test(value) ? `'${value}` : value;
}

/**
 * One CSV field (RFC 4180): defused, and quoted when it holds a separator, a quote or a line break;
 * also a tab, which a spreadsheet's import may take for a separator. null is an empty field.
 */
export function csvField(value: string | null): string {
  if (value === null) return "";
  const text = spreadsheetText(value);
  return /[",\r\n\t]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** One CSV line, CRLF-terminated. */
export function csvLine(fields: readonly (string | null)[]): string {
  return `${fields.map(csvField).join(",")}\r\n`;
}
