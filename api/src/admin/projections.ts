import type pg from "pg";
import { z } from "zod";
import { ProjectionRecord, formatPosition, type LogPosition, type ProjectionGeneration, type RebuildProgress } from "@booking/contracts";
import { PostgresEventStore, storedLogOf, type EventStore } from "@booking/event-store";
import {
  allProjections,
  claimRebuild,
  inTransaction,
  projectionNamed,
  readCheckpoints,
  readGenerations,
  rebuildProjections,
  recordProjectionError,
  type Projection,
  type RebuildClaim,
} from "@booking/projections";
import { refuse } from "../http/index.ts";
import type { RoutePlugin } from "../http/index.ts";
import { IdText, ListQueryString, parseListQuery, sendList, oneOrMany, type ListSpec } from "./list-query.ts";

// The read models (id = projection name): checkpoint, status, lag behind the event store, their
// generations (the live one; one being built, by any process; retired ones not dropped yet) and
// the progress of a rebuild started here. A rebuild replays the event store (never the bus) into a
// new generation of one read model, in the background, while the live one keeps serving; one at a
// time per read model, across every API process and `npm run replay`.

const ProjectionFilter = z
  .object({
    id: oneOrMany(IdText).optional(),
    status: oneOrMany(z.enum(["live", "rebuilding", "not_started"])).optional(),
  })
  .strict();

// A handful of rows, sorted in memory: the values name the record fields, not SQL.
const spec: ListSpec<typeof ProjectionFilter> = {
  resource: "projections",
  sortable: { id: "id", name: "name", status: "status", events_applied: "events_applied", lag: "lag", updated_at: "updated_at" },
  defaultSort: ["name", "ASC"],
  uniqueKey: "id",
  filter: ProjectionFilter,
};

export type ProjectionsAdminDeps = { db: pg.Pool; store: EventStore };

/** Events after `position`, counted in the Postgres store's own `events` table (same order as its readers). */
async function eventsAfter(pool: pg.Pool, position: LogPosition | null): Promise<number> {
  const { rows } = await pool.query<{ n: string }>(
    "SELECT count(*) AS n FROM events WHERE (transaction_id, global_position) > ($1::text::xid8, $2::bigint)",
    [String(position?.commit ?? 0n), String(position?.prepare ?? 0n)],
  );
  return Number(rows[0]!.n);
}

/**
 * The checkpoints (each read model's live generation) and the other generations in one snapshot:
 * read apart, a switch committing between the two reads showed the new generation both live and
 * still being built. The generations go first: the snapshot is taken by that statement, which also
 * asks pg_locks (not versioned: it says what holds now) whether a process is building each one.
 */
function liveAndOtherGenerations(db: pg.Pool, projections: readonly Projection[]) {
  return inTransaction(
    db,
    async (client) => {
      const generations = await readGenerations(client, projections);
      const checkpoints = await readCheckpoints(
        client,
        projections.map((p) => p.name),
      );
      return [checkpoints, generations] as const;
    },
    "BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY",
  );
}

async function projectionRecords(
  { db, store }: ProjectionsAdminDeps,
  running: ReadonlyMap<string, RebuildProgress>,
  projections: readonly Projection[],
): Promise<ProjectionRecord[]> {
  // The rebuilds' progress as it is before the reads below: a rebuild shown done has switched in what they read.
  const rebuilds = new Map([...running].map(([name, view]) => [name, { ...view }]));
  const [[checkpointList, others], headEvents] = await Promise.all([
    liveAndOtherGenerations(db, projections),
    storedLogOf(store) instanceof PostgresEventStore ? store.countEvents() : Promise.resolve(null),
  ]);
  const checkpoints = new Map(checkpointList.map((c) => [c.name, c]));
  // Read models usually share a checkpoint: count each distinct position once.
  const lags = new Map<string, Promise<number>>();
  const lagOf = (position: LogPosition | null): Promise<number | null> => {
    const stored = storedLogOf(store);
    if (!(stored instanceof PostgresEventStore)) return Promise.resolve(null);
    const key = position ? formatPosition(position) : "";
    if (!lags.has(key)) lags.set(key, eventsAfter(stored.pool, position));
    return lags.get(key)!;
  };
  return Promise.all(
    projections.map(async (p): Promise<ProjectionRecord> => {
      const c = checkpoints.get(p.name);
      const live: ProjectionGeneration[] = c
        ? [
            {
              generation: c.generation,
              state: "live",
              version: c.version,
              tables: [...p.tables],
              position: c.position ? formatPosition(c.position) : null,
              events_applied: c.eventsApplied,
              lag: await lagOf(c.position),
              started_at: null,
              updated_at: c.updatedAt,
              retired_at: null,
              running: false,
            },
          ]
        : [];
      // Being built before retired; each kind oldest first.
      const rest = others
        .filter((g) => g.name === p.name)
        .sort((a, b) => (a.state === b.state ? a.generation - b.generation : a.state === "building" ? -1 : 1));
      const generations = [
        ...live,
        ...(await Promise.all(
          rest.map(async (g): Promise<ProjectionGeneration> => ({
            generation: g.generation,
            state: g.state,
            version: g.version,
            tables: g.tables,
            position: g.position ? formatPosition(g.position) : null,
            events_applied: g.eventsApplied,
            lag: await lagOf(g.position),
            started_at: g.startedAt,
            updated_at: g.updatedAt,
            retired_at: g.retiredAt,
            running: g.running,
          })),
        )),
      ];
      return {
        id: p.name,
        name: p.name,
        tables: [...p.tables],
        status: c?.status ?? "not_started",
        position: c?.position ? formatPosition(c.position) : null,
        events_applied: c?.eventsApplied ?? 0,
        last_error: c?.lastError ?? null,
        updated_at: c?.updatedAt ?? null,
        lag: await lagOf(c?.position ?? null),
        rebuild: rebuilds.get(p.name) ?? null,
        version: p.version,
        head_events: headEvents,
        generations,
      };
    }),
  );
}

function compareBy(field: string): (a: ProjectionRecord, b: ProjectionRecord) => number {
  return (a, b) => {
    const x = a[field as keyof ProjectionRecord];
    const y = b[field as keyof ProjectionRecord];
    if (x === y) return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
    if (x === null) return 1; // nulls last, as Postgres sorts ascending
    if (y === null) return -1;
    return (x as string | number) < (y as string | number) ? -1 : 1;
  };
}

export const projectionsAdmin: RoutePlugin<ProjectionsAdminDeps> = async (app, deps) => {
  const { db, store } = deps;
  const rebuilds = new Map<string, RebuildProgress>();

  const recordOf = async (name: string) => {
    const projection = projectionNamed(name);
    if (!projection) refuse("not_found");
    return (await projectionRecords(deps, rebuilds, [projection]))[0]!;
  };

  async function rebuildInBackground(projection: Projection, view: RebuildProgress, claim: RebuildClaim): Promise<void> {
    try {
      await rebuildProjections(store, db, [projection], {
        claim,
        onProgress: (p) =>
          Object.assign(view, {
            done: p.done,
            total: p.total,
            eventsPerSecond: Math.round(p.eventsPerSecond),
            secondsLeft: p.secondsLeft === null ? null : Math.ceil(p.secondsLeft),
          }),
      });
      Object.assign(view, { state: "done", secondsLeft: 0 });
    } catch (e) {
      // The new generation is dropped; the live one never stopped serving.
      const message = e instanceof Error ? e.message : String(e);
      Object.assign(view, { state: "failed", error: message });
      app.log.error({ err: e, projection: projection.name }, "read model rebuild failed");
      await recordProjectionError(db, [projection], e);
    } finally {
      view.finished_at = new Date().toISOString();
      await claim.release();
    }
  }

  app.get(
    "/projections",
    { schema: { querystring: ListQueryString, response: { 200: z.array(ProjectionRecord) } } },
    async (request, reply) => {
      const list = parseListQuery(spec, request.query);
      const { id, status } = list.filter;
      let records = await projectionRecords(deps, rebuilds, allProjections);
      if (id) records = records.filter((r) => id.includes(r.id));
      if (status) records = records.filter((r) => status.includes(r.status));
      records.sort(compareBy(list.sort.field));
      if (list.sort.order === "DESC") records.reverse();
      return [...sendList(reply, spec.resource, list.offset, records.slice(list.offset, list.offset + list.limit), records.length)];
    },
  );

  app.get(
    "/projections/:id",
    { schema: { params: z.object({ id: IdText }).strict(), response: { 200: ProjectionRecord } } },
    async (request) => recordOf(request.params.id),
  );

  app.post(
    "/projections/:id/rebuild",
    { schema: { params: z.object({ id: IdText }).strict(), response: { 202: ProjectionRecord } } },
    async (request, reply) => {
      const projection = projectionNamed(request.params.id);
      if (!projection) refuse("not_found");
      // 409: this read model is being rebuilt already (here, or by another API process).
      if (rebuilds.get(projection.name)?.state === "running") refuse("projection_rebuild_running");
      // The claim is refused while the read model is rebuilt anywhere: another API process or `npm run replay`.
      const claim = await claimRebuild(db, [projection.name]);
      if (!claim) refuse("projection_rebuild_running");
      const view: RebuildProgress = {
        state: "running",
        done: 0,
        total: 0,
        eventsPerSecond: 0,
        secondsLeft: null,
        started_at: new Date().toISOString(),
        finished_at: null,
      };
      rebuilds.set(projection.name, view);
      void rebuildInBackground(projection, view, claim);
      return reply.status(202).send(await recordOf(projection.name));
    },
  );
};
