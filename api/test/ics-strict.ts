// An iCalendar reader as loose as the loosest calendar app: after unfolding (CRLF followed by a
// space or tab, the only continuation RFC 5545 has), every character any parser might take for a
// line end ends a line: CR, LF, VT, FF, the separators FS/GS/RS, NEL, LS and PS (Python's
// str.splitlines() honours all of them). What it finds is what the most gullible reader would see.

/** Every line end a loose parser honours. */
// eslint-disable-next-line no-control-regex -- line ends are exactly what this finds
const ANY_LINE_END = /\r\n|[\n\r\v\f\x1c-\x1e\x85\u2028\u2029]/;

/** Any control character (C0, DEL, C1) or Unicode line or paragraph separator. */
// eslint-disable-next-line no-control-regex -- control characters are exactly what this finds
export const CONTROL_OR_BREAK = /[\x00-\x1f\x7f-\x9f\u2028\u2029]/;

export type StrictProperty = { name: string; raw: string; value: string };
export type StrictComponent = { name: string; properties: StrictProperty[]; components: StrictComponent[] };

/** The content lines of `text`, split on every line end after unfolding. */
export function strictLines(text: string): string[] {
  const lines = text.replace(/\r\n[ \t]/g, "").split(ANY_LINE_END);
  // The file ends with CRLF: the one empty string after it is not a line.
  if (lines.at(-1) === "") lines.pop();
  return lines;
}

/** A value with RFC 5545's TEXT escapes undone (\\n, \\N, \\;, \\, and \\\\). */
export const unescapeText = (value: string): string =>
  value.replace(/\\([nN;,\\])/g, (_m, c: string) => (c === "n" || c === "N" ? "\n" : c));

/**
 * The calendar's components, read line by line. A line that is not `NAME[;params]:value` with a
 * name of letters, digits and dashes, or a BEGIN/END out of order, is an error: a strict reader
 * would refuse the file, a loose one would read whatever it made of it.
 */
export function strictCalendar(text: string): StrictComponent {
  const stack: StrictComponent[] = [];
  let root: StrictComponent | null = null;
  for (const line of strictLines(text)) {
    const m = /^([A-Za-z0-9-]+)([;:])/.exec(line);
    if (!m) throw new Error(`not a content line: ${JSON.stringify(line)}`);
    const name = m[1]!.toUpperCase();
    const value = valueOf(line);
    if (name === "BEGIN") {
      const component: StrictComponent = { name: value.toUpperCase(), properties: [], components: [] };
      if (stack.length) stack.at(-1)!.components.push(component);
      else if (root) throw new Error("a second top-level component");
      else root = component;
      stack.push(component);
    } else if (name === "END") {
      const open = stack.pop();
      if (!open || open.name !== value.toUpperCase()) throw new Error(`END:${value} does not close ${open?.name ?? "anything"}`);
    } else {
      const open = stack.at(-1);
      if (!open) throw new Error(`a property outside any component: ${line}`);
      open.properties.push({ name, raw: line, value });
    }
  }
  if (!root || stack.length) throw new Error("the calendar is not closed");
  return root;
}

/** The value after the first colon outside a quoted parameter value. */
function valueOf(line: string): string {
  let quoted = false;
  for (let i = 0; i < line.length; i++) {
    if (line[i] === '"') quoted = !quoted;
    else if (line[i] === ":" && !quoted) return line.slice(i + 1);
  }
  throw new Error(`no value: ${JSON.stringify(line)}`);
}

export const propertyNames = (c: StrictComponent): string[] => c.properties.map((p) => p.name);
export const propertyValue = (c: StrictComponent, name: string): string | undefined => c.properties.find((p) => p.name === name)?.value;

/** Hostile text: each break followed by what an attacker would like a calendar to read. */
export function hostile(label: string): string {
  return [
    label,
    "\rATTENDEE;CN=Mallory:mailto:mallory@evil.example",
    "\u2028END:VEVENT\u2028BEGIN:VEVENT\u2028UID:forged@evil.example\u2028SUMMARY:Forged",
    "\u2029X-INJECTED:ps",
    "\x85X-INJECTED:nel",
    "\vX-INJECTED:vt",
    "\fX-INJECTED:ff",
    "\x1cX-INJECTED:fs\x1dX-INJECTED:gs\x1eX-INJECTED:rs",
    '"quoted";semi,comma\\backslash',
  ].join("");
}

/** Hostile text short enough for a 100-character name field (the stored profile's schema still limits length). */
export function hostileName(label: string): string {
  return `${label}\rX-INJECTED:cr\u2028END:VEVENT\u2029BEGIN:VEVENT\x85UID:forged\vX-A:vt\fX-B:ff\x1eX-C:rs`;
}
