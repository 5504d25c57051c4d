import { z } from "zod";
import { Actor } from "./primitives.ts";
import { CalendarEvent } from "./calendar.ts";
import { ConversationEvent } from "./conversation.ts";
import { ExpertEvent } from "./expert.ts";
import { PayoutEvent } from "./payouts.ts";
import { ReviewEvent } from "./review.ts";
import { SessionEvent } from "./session.ts";
import { TermsEvent } from "./terms.ts";
import { UserEvent } from "./user.ts";

export const DomainEvent = z.discriminatedUnion("type", [
  ...CalendarEvent.options,
  ...SessionEvent.options,
  ...ExpertEvent.options,
  ...TermsEvent.options,
  ...UserEvent.options,
  ...ReviewEvent.options,
  ...PayoutEvent.options,
  ...ConversationEvent.options,
]);
export type DomainEvent = z.infer<typeof DomainEvent>;
export type DomainEventType = DomainEvent["type"];
export type EventOf<T extends DomainEventType> = Extract<DomainEvent, { type: T }>;

/** Who caused an event, when it was recorded, and the command's idempotency key if it had one. */
export const EventMetadata = z.object({
  at: z.string(),
  actor: Actor.optional(),
  idempotencyKey: z.string().max(255).optional(),
  correlationId: z.string().max(255).optional(),
  // W3C trace context of the span that appended the event (issue 35.3), so the relay's, projectors' and reactors' spans
  // join the request's trace. Written only while tracing is on; never personal data.
  traceparent: z.string().max(55).optional(),
  tracestate: z.string().max(512).optional(),
});
export type EventMetadata = z.infer<typeof EventMetadata>;

// Events are versioned. A stored event of an older schema version is upcast when read, step by
// step, and never rewritten. Every event type is at version 1 today; a change to an event's data
// adds an upcaster from the old version here and bumps the type's current version.
export type Upcaster = (data: Record<string, unknown>) => Record<string, unknown>;
export type UpcasterRegistry = Partial<Record<DomainEventType, { current: number; steps: Record<number, Upcaster> }>>;

export const upcasters: UpcasterRegistry = {};

export function currentSchemaVersion(type: DomainEventType, registry: UpcasterRegistry = upcasters): number {
  return registry[type]?.current ?? 1;
}

/** Turn a stored (type, schemaVersion, data) into a current, validated domain event. */
export function readDomainEvent(type: string, schemaVersion: number, data: unknown, registry: UpcasterRegistry = upcasters): DomainEvent {
  let payload = data as Record<string, unknown>;
  const entry = registry[type as DomainEventType];
  if (entry) {
    for (let v = schemaVersion; v < entry.current; v++) {
      const step = entry.steps[v];
      if (!step) throw new Error(`No upcaster for ${type} from schema version ${v}`);
      payload = step(payload);
    }
  }
  // A stored event that does not parse is corruption, not user input: fail loudly.
  return DomainEvent.parse({ type, data: payload });
}
