import type pg from "pg";
import type { EventStore, Subscription } from "@booking/event-store";
import { waitForReadModels, type ReadModelFeed } from "../http/index.ts";

export type BookingChange = { bookingId: string; status: string; type: string };
type Listener = (change: BookingChange) => void;

/**
 * Pushes booking changes to the signed-in parties once they are projected. Every API instance
 * follows the event log itself, so it works with any number of replicas.
 */
export class BookingFeed {
  private readonly listeners = new Map<string, Set<Listener>>();
  private subscription: Subscription | null = null;

  constructor(
    private readonly store: EventStore,
    private readonly db: pg.Pool,
    private readonly readModels: ReadModelFeed = "log",
  ) {}

  async start(): Promise<void> {
    const after = await this.store.headPosition();
    this.subscription = this.store.subscribe({
      after,
      onEvents: async (events) => {
        const changed = [
          ...new Set(
            events.flatMap((e) => {
              const id = (e.data as { bookingId?: unknown }).bookingId;
              // A booking's calendar events, and its conversation's (issue 31.3): a new message shows at once.
              return (e.streamId.startsWith("calendar-") || e.streamId.startsWith("conversation-")) && typeof id === "string" ? [id] : [];
            }),
          ),
        ];
        if (changed.length === 0 || this.listeners.size === 0) return;
        await waitForReadModels(this.db, { position: events[events.length - 1]!.position, events }, this.readModels);
        const { rows } = await this.db.query<{ booking_id: string; creator_id: string; expert_user_id: string; status: string }>(
          "SELECT booking_id, creator_id, expert_user_id, status FROM bookings WHERE booking_id = ANY($1)",
          [changed],
        );
        // A booking's change names its last calendar event when the batch has one (the booking itself changed), else its
        // conversation's last event: a client refreshes the booking on the former, only the thread on the latter.
        const lastType = new Map<string | undefined, string>();
        for (const calendarFirst of [false, true])
          for (const e of events)
            if (e.streamId.startsWith("calendar-") === calendarFirst) lastType.set((e.data as { bookingId?: string }).bookingId, e.type);
        for (const r of rows) {
          const change = { bookingId: r.booking_id, status: r.status, type: lastType.get(r.booking_id) ?? "" };
          for (const user of [r.creator_id, r.expert_user_id]) for (const l of this.listeners.get(user) ?? []) l(change);
        }
      },
    });
  }

  listen(userId: string, listener: Listener): () => void {
    const set = this.listeners.get(userId) ?? new Set();
    set.add(listener);
    this.listeners.set(userId, set);
    return () => {
      set.delete(listener);
      if (set.size === 0) this.listeners.delete(userId);
    };
  }

  async stop(): Promise<void> {
    await this.subscription?.stop();
  }
}
