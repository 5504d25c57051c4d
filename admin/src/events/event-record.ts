import { DomainEvent, type LoggedEventRecord } from "@booking/contracts";

/** One event of the global log, as stored (GET /admin/events; id = event id). */
export type LoggedEvent = LoggedEventRecord;

export const eventTypeChoices = DomainEvent.options
  .map((option) => option.shape.type.value)
  .sort()
  .map((type) => ({ id: type, name: type }));

/** The resource an event's stream belongs to, with the record id, for a link. */
export function streamOwner(streamId: string): { resource: string; id: string } | null {
  const [kind, ...rest] = streamId.split("-");
  const id = rest.join("-");
  if (!id) return null;
  if (kind === "expert" || kind === "calendar") return { resource: "experts", id };
  if (kind === "session") return { resource: "sessions", id };
  if (kind === "terms" || kind === "user") return { resource: "users", id };
  return null;
}
