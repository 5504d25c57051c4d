import { CONSISTENCY_POSITION_HEADER, comparePositions, formatPosition, parsePosition, type LogPosition } from "./log.ts";

// Read-your-writes by position, the client's half (issue 34.1): a command's reply names where in the log it wrote
// (Consistency-Position); the client keeps the newest it has heard and sends it with every later call, and the API
// holds such a call until its read models show that write. A call sent before any write carries nothing and is
// served at once.

export class ClientPositions {
  private newest: LogPosition | null = null;

  /** A reply's Consistency-Position (absent, or one older than the newest held: nothing changes). */
  heard(value: string | readonly string[] | null | undefined): void {
    const text = Array.isArray(value) ? value[0] : value;
    const position = typeof text === "string" ? parsePosition(text.trim()) : null;
    if (position && (!this.newest || comparePositions(position, this.newest) > 0)) this.newest = position;
  }

  /** The header to send with the next call (none before any write). */
  headers(): Record<string, string> {
    return this.newest ? { [CONSISTENCY_POSITION_HEADER]: formatPosition(this.newest) } : {};
  }

  /** `init` with the newest position added to its headers (kept as it is when none is held). */
  sentWith(init: RequestInit = {}): RequestInit {
    if (!this.newest) return init;
    const headers = new Headers(init.headers);
    headers.set(CONSISTENCY_POSITION_HEADER, formatPosition(this.newest));
    return { ...init, headers };
  }
}
