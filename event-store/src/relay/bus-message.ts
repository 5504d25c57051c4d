import { formatPosition, parsePosition, type StoredEvent } from "@booking/contracts";

/**
 * Partitions of the bus topic when the relay or a projector creates it. Both create it before
 * use: a consumer that met a missing topic would have the broker create it with its own default.
 */
export const BUS_TOPIC_PARTITIONS = 6;

// Events travel on the bus as JSON: positions as "commit:prepare" strings (JSON has no bigint).
export function encodeBusMessage(e: StoredEvent): string {
  return JSON.stringify({ ...e, position: formatPosition(e.position) });
}

export function decodeBusMessage(value: string): StoredEvent {
  const raw = JSON.parse(value) as Omit<StoredEvent, "position"> & { position: string };
  const position = parsePosition(raw.position);
  if (!position) throw new Error(`Bus message with a malformed position: ${raw.position}`);
  return { ...raw, position };
}
