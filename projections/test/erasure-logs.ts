import pg from "pg";
import {
  comparePositions,
  readDomainEvent,
  type BookingParties,
  type DomainEvent,
  type EventLog,
  type LogPosition,
  type StoredEvent,
} from "@booking/contracts";
import { InMemoryKeyRing, masterKeyFromSecret, openEvent, sealEvent } from "@booking/event-store";
import { createTestDatabase, type TestDatabase } from "@booking/testkit";
import { testPostgresUrl } from "@booking/testkit/worker-postgres";
import {
  allProjections,
  applyBatch,
  dropRetiredGenerations,
  migrateReadModels,
  readModelDigest,
  readModelTables,
  rebuildProjections,
} from "../src/index.ts";
import { marketplaceEvents } from "./marketplace-events.ts";
import { storedEvents, type GivenEvent } from "./read-model-spec.ts";

// The logs the erasure suites compare (issue 33.2): the marketplace's history with a person's UserErased at its end, as
// stored, and as it reads once every event was sealed with the real envelope on its way in and the person's data key was
// destroyed; and read models on Postgres to apply them to, live (the runners' batches) or by a rebuild.

export type Person = { userId: string; expertIds: string[]; traces: string[]; kept: string[] };

/** The marketplace's creator: their name, address and every text they wrote are traces; the expert's words stay. */
export const CREATOR: Person = {
  userId: "u-creator",
  expertIds: [],
  traces: [
    ...["maya@example.com", "Lind", "Raise prices", "Clear pricing tiers", "Can we cover pricing?", "Moved", "Not about the session"],
    "Waited twenty minutes alone",
  ],
  kept: [
    ...["Yes, bring your tiers.", "We looked at tiers", "Thank you, Maya!", "Okafor", "Pricing review", "Which tiers do you sell now?"],
    ...["meet.example.com/ines-okafor", "My train broke down", "The expert's delay is on record", "Dentist", "Ines missed two sessions"],
  ],
};

/** The marketplace's first expert (expert id e1, user u-expert): their profile, notes, reply and messages. */
export const EXPERT: Person = {
  userId: "u-expert",
  expertIds: ["e1"],
  traces: [
    "ines@okafor.example",
    "ines@example.com",
    "Okafor",
    "ines-okafor",
    "Pricing coach",
    "We looked at tiers",
    "Tier up",
    "Thank you, Maya!",
  ],
  kept: ["Raise prices", "Can we cover pricing?", "Clear pricing tiers, a bit rushed", "Lind", "Pricing review"],
};

const BOOKING_PARTIES: BookingParties = { creator: "u-creator", expert: "u-expert" };
const EXPERT_USERS: Record<string, string> = { e1: "u-expert", e2: "u-expert-2" };

/** Whom an event is about where it does not say (the envelope's parties): the booking's, or the expert whose stream it is on. */
function partiesOf(stream: string, event: DomainEvent): BookingParties {
  if ("bookingId" in event.data) return BOOKING_PARTIES;
  const kind = stream.slice(0, stream.indexOf("-"));
  return kind === "calendar" || kind === "expert" ? { expert: EXPERT_USERS[stream.slice(kind.length + 1)] } : {};
}

/**
 * What the marketplace's history does not say and an erasure must find: a third booking of the two with the expert's
 * question, meeting link and declined move, a no-show report contested and settled; the expert's time off with a note
 * and an admin's reason for suspending them. Event shapes only: the read models take the log as it is.
 */
const b3 = { bookingId: "b3" };
const bookingRequested = () =>
  marketplaceEvents.find((g) => g.event.type === "BookingRequested")!.event as Extract<DomainEvent, { type: "BookingRequested" }>;
const MORE_HISTORY: GivenEvent[] = [
  {
    stream: "calendar-e1",
    event: { type: "BookingRequested", data: { ...bookingRequested().data, ...b3, scheduledTime: "2030-02-15T10:00:00.000Z" } },
  },
  { stream: "calendar-e1", event: { type: "InfoRequested", data: { ...b3, note: "Which tiers do you sell now?" } } },
  { stream: "calendar-e1", event: { type: "Confirmed", data: { ...b3, by: "expert" } } },
  { stream: "calendar-e1", event: { type: "JoinLinkSet", data: { ...b3, url: "https://meet.example.com/ines-okafor", by: "expert" } } },
  {
    stream: "calendar-e1",
    event: {
      type: "RescheduleRequested",
      data: { ...b3, from: "2030-02-15T10:00:00.000Z", to: "2030-02-16T10:00:00.000Z", by: "creator" },
    },
  },
  {
    stream: "calendar-e1",
    event: {
      type: "RescheduleDeclined",
      data: { ...b3, from: "2030-02-15T10:00:00.000Z", to: "2030-02-16T10:00:00.000Z", by: "expert", reason: "Away at a fair that day" },
    },
  },
  {
    stream: "calendar-e1",
    event: {
      type: "NoShowReported",
      data: { ...b3, absent: "expert", by: "u-creator", note: "Waited twenty minutes alone", contestBy: "2030-02-18T10:00:00.000Z" },
    },
  },
  { stream: "calendar-e1", event: { type: "NoShowContested", data: { ...b3, by: "u-expert", note: "My train broke down" } } },
  {
    stream: "calendar-e1",
    event: {
      type: "NoShowSettled",
      data: {
        ...b3,
        absent: "expert",
        outcome: "expert_no_show",
        refundCents: 15_000,
        by: "u-admin",
        reason: "The expert's delay is on record",
      },
    },
  },
  {
    stream: "calendar-e1",
    event: {
      type: "TimeOffAdded",
      data: { expertId: "e1", timeOffId: "off-e1", start: "2030-03-01T00:00", end: "2030-03-02T00:00", reason: "Dentist" },
    },
  },
  {
    stream: "expert-e1",
    event: {
      type: "ExpertSuspended",
      data: { expertId: "e1", by: "u-admin", at: "2030-02-20T09:00:00.000Z", reason: "Ines missed two sessions" },
    },
  },
];

const erasureOf = (person: Person): GivenEvent => ({
  stream: `user-${person.userId}`,
  event: { type: "UserErased", data: { userId: person.userId, at: "2030-03-01T00:00:00.000Z", expertIds: person.expertIds } },
});

/** The log as stored: the marketplace, then the person's erasure. */
const HISTORY = [...marketplaceEvents, ...MORE_HISTORY];

export const plainLog = (person: Person): StoredEvent[] => storedEvents([...HISTORY, erasureOf(person)]).map((e) => e.stored);

/** The same log as it reads once every event was sealed on its way in and the person's data key was destroyed. */
export async function logWithKeyDestroyed(person: Person): Promise<StoredEvent[]> {
  const keys = new InMemoryKeyRing(masterKeyFromSecret("erasure-test-master-secret-of-32-characters"));
  const given = [...HISTORY, erasureOf(person)];
  const stored = plainLog(person);
  const sealed = await Promise.all(
    stored.map((s, i) => sealEvent({ type: s.type, data: s.data }, keys, partiesOf(given[i]!.stream, given[i]!.event))),
  );
  keys.erase(person.userId);
  const opened = await Promise.all(sealed.map((s) => openEvent(s, keys)));
  return stored.map((s, i) => {
    // Every field of theirs reads as erased, and the event still parses as its type (as the runners parse it).
    readDomainEvent(s.type, 1, opened[i]!.data);
    return { ...s, data: opened[i]!.data };
  });
}

/** A log in memory, with a hook after each read (a rebuild's reads), so that an append can land while a rebuild runs. */
export class MemoryLog implements EventLog {
  afterRead: ((read: StoredEvent[]) => void) | null = null;
  constructor(readonly events: StoredEvent[]) {}
  async readAll(after: LogPosition | null, limit: number): Promise<StoredEvent[]> {
    const read = this.events.filter((e) => !after || comparePositions(e.position, after) > 0).slice(0, limit);
    this.afterRead?.(read);
    return read;
  }
  async headPosition() {
    return this.events.at(-1)?.position ?? null;
  }
  async countEvents() {
    return this.events.length;
  }
}

export type Digest = Awaited<ReturnType<typeof readModelDigest>>;

/** Batches of a rebuild: small, so that the log takes several. */
export const REBUILD_BATCH = 7;

/** Every read model in one database, emptied before each use (a database each would cost a suite most of its time). */
export class ReadModels {
  private constructor(
    private readonly db: TestDatabase,
    readonly pool: pg.Pool,
  ) {}

  static async open(): Promise<ReadModels> {
    const db = await createTestDatabase(testPostgresUrl(), "erase");
    const pool = new pg.Pool({ connectionString: db.url, max: 4 });
    pool.on("error", () => undefined);
    await migrateReadModels(pool);
    return new ReadModels(db, pool);
  }

  private async empty(): Promise<void> {
    await dropRetiredGenerations(this.pool, allProjections, 0);
    await this.pool.query(`TRUNCATE ${readModelTables.join(", ")}`);
    await this.pool.query("UPDATE projection_checkpoints SET position = NULL, events_applied = 0");
  }

  /** The runners' path: the log applied in two batches to the live tables. */
  async applyLive(log: readonly StoredEvent[]): Promise<Digest> {
    await this.empty();
    const half = Math.ceil(log.length / 2);
    await applyBatch(this.pool, allProjections, log.slice(0, half), "log");
    await applyBatch(this.pool, allProjections, log.slice(half), "log");
    return readModelDigest(this.pool);
  }

  /** A rebuild's path: a new generation of every read model filled from the log in small batches, then made live. */
  async rebuild(log: EventLog): Promise<Digest> {
    await this.empty();
    await rebuildProjections(log, this.pool, allProjections, { batchSize: REBUILD_BATCH });
    return readModelDigest(this.pool);
  }

  /** Every row of every read model, as text. */
  async everyRow(): Promise<string> {
    const tables = await Promise.all(
      readModelTables.map(async (t) => (await this.pool.query(`SELECT to_jsonb(r)::text AS row FROM ${t} r`)).rows),
    );
    return tables
      .flat()
      .map((r: { row: string }) => r.row)
      .join("\n");
  }

  async close(): Promise<void> {
    await this.pool.end();
    await this.db.drop();
  }
}
