import type { StoredEvent } from "@booking/contracts";

// Our own seam in front of the message bus: kafkajs is unmaintained, so the relay and its tests
// depend on this, and swapping the client means writing one new publisher.

/** The topic every booking event is published to, keyed by stream id. */
export const DEFAULT_TOPIC = "booking-events";

export interface BusPublisher {
  /**
   * Publish the events in the order given and resolve only once the bus has durably accepted all
   * of them; events of one stream must keep their order. Rejects if any may be missing.
   */
  publish(events: readonly StoredEvent[]): Promise<void>;
  close(): Promise<void>;
}
