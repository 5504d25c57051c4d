import type { EventStore } from "../port.ts";
import type { EventParties } from "./envelope.ts";
import type { EventBody, EventPartySource } from "./sealed-event-store.ts";

// Whose personal data an event's party-owned fields are (issue 33.1), for the store that seals them
// (./sealed-event-store.ts). contracts' declarations say "the booking's creator" or "the expert"; this finds their
// user ids:
// - An event about a booking (it carries `bookingId`: the calendar's, `review-{bookingId}`, `conversation-{bookingId}`):
//   the creator and expert its BookingRequested named (`creatorId`, `expertUserId`). Remembered when the request is
//   written through this process; else asked of the bookings read model (where the process has one: `bookings`);
//   else, where the read model has not caught up yet (another process wrote the request a moment ago), read from the
//   log: the calendar's request, or the review's ReviewLeft.
// - An event on an expert's own stream without a booking (`calendar-`, `expert-`, `payouts-{expertId}`): the expert,
//   as a user. An expert id is not a user id by definition: ExpertProfileSaved records which user the profile is
//   (`userId`, never changed after: the expert decider refuses another), so the expert's stream tells. Before a profile
//   exists (a schedule's time off, set first), the expert id is the user id: the API names an expert by their account's
//   id (api/src/experts/routes.ts and the schedule routes use `actor.userId`), and there is no other record to ask.

/** Remembered per process; a booking's parties and an expert's user never change, so only their number is bounded. */
const REMEMBERED_BOOKINGS = 50_000;
const REMEMBERED_EXPERTS = 10_000;

/** A booking's creator and expert, as user ids. */
export type BookingParties = { creator: string; expert: string };
type Parties = BookingParties;

/** An expert's own stream, named by the expert's id. */
const EXPERT_STREAM = /^(?:calendar|expert|payouts)-(.+)$/;
/** A booking's own stream, named by the booking's id. */
const BOOKING_STREAM = /^(?:review|conversation)-(.+)$/;

const stringAt = (data: unknown, field: string): string | undefined => {
  const value = typeof data === "object" && data !== null ? (data as Record<string, unknown>)[field] : undefined;
  return typeof value === "string" && value !== "" ? value : undefined;
};

/** What a BookingRequested says of its parties. */
function requestedParties(event: EventBody, bookingId?: string): Parties | null {
  if (event.type !== "BookingRequested") return null;
  const [id, creator, expert] = [
    stringAt(event.data, "bookingId"),
    stringAt(event.data, "creatorId"),
    stringAt(event.data, "expertUserId"),
  ];
  return id && creator && expert && (bookingId === undefined || id === bookingId) ? { creator, expert } : null;
}

function keep<V>(memory: Map<string, V>, key: string, value: V, bound: number): void {
  memory.delete(key);
  memory.set(key, value);
  if (memory.size > bound) memory.delete(memory.keys().next().value!);
}

export class BookingPartyBook implements EventPartySource {
  private readonly bookings = new Map<string, Parties>();
  private readonly experts = new Map<string, string>();

  /**
   * `log`: the log as stored (only ids are read, never a sealed field); `bookings`: a booking's parties as the bookings
   * read model holds them, where the process has read models (null when it does not know the booking).
   */
  constructor(
    private readonly deps: { log: Pick<EventStore, "readStream">; bookings?: (bookingId: string) => Promise<BookingParties | null> },
  ) {}

  written(_streamId: string, events: readonly EventBody[]): void {
    for (const e of events) {
      const parties = requestedParties(e);
      if (parties) keep(this.bookings, stringAt(e.data, "bookingId")!, parties, REMEMBERED_BOOKINGS);
    }
  }

  async partiesOf(streamId: string, event: EventBody, earlier: readonly EventBody[]): Promise<EventParties> {
    const ofExpert = EXPERT_STREAM.exec(streamId)?.[1];
    const bookingId = streamId.startsWith("payouts-")
      ? undefined
      : (stringAt(event.data, "bookingId") ?? BOOKING_STREAM.exec(streamId)?.[1]);
    if (bookingId) return (await this.bookingParties(bookingId, streamId, event, earlier)) ?? {};
    return ofExpert ? { expert: await this.expertUser(ofExpert, earlier) } : {};
  }

  /** The user whose expert profile `expertId` is (`earlier`: events of the same append, which the log does not hold yet). */
  async expertUser(expertId: string, earlier: readonly EventBody[] = []): Promise<string> {
    const known = this.experts.get(expertId);
    if (known) return known;
    const saved = (e: EventBody) => e.type === "ExpertProfileSaved" && stringAt(e.data, "expertId") === expertId;
    const profile = earlier.find(saved) ?? (await this.deps.log.readStream(`expert-${expertId}`)).events.find(saved);
    const userId = profile && stringAt(profile.data, "userId");
    if (!userId) return expertId;
    keep(this.experts, expertId, userId, REMEMBERED_EXPERTS);
    return userId;
  }

  private async bookingParties(
    bookingId: string,
    streamId: string,
    event: EventBody,
    earlier: readonly EventBody[],
  ): Promise<Parties | null> {
    for (const e of [...earlier].reverse()) {
      const parties = requestedParties(e, bookingId);
      if (parties) return parties;
    }
    const parties =
      this.bookings.get(bookingId) ?? (await this.deps.bookings?.(bookingId)) ?? (await this.fromLog(bookingId, streamId, event));
    if (parties) keep(this.bookings, bookingId, parties, REMEMBERED_BOOKINGS);
    return parties;
  }

  /** The log: the calendar's request of the booking, or the review's first event (it names the creator and the expert). */
  private async fromLog(bookingId: string, streamId: string, event: EventBody): Promise<Parties | null> {
    if (streamId.startsWith("calendar-")) {
      const { events } = await this.deps.log.readStream(streamId);
      for (const e of events) {
        const parties = requestedParties(e, bookingId);
        if (parties) return parties;
      }
      return null;
    }
    const left =
      event.type === "ReviewLeft"
        ? event
        : streamId.startsWith("review-")
          ? (await this.deps.log.readStream(streamId)).events.find((e) => e.type === "ReviewLeft")
          : undefined;
    const [creator, expertId] = [stringAt(left?.data, "creatorId"), stringAt(left?.data, "expertId")];
    return creator && expertId ? { creator, expert: await this.expertUser(expertId) } : null;
  }
}
