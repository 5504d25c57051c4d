/** A rebuild's progress (the `rebuild` field of GET /admin/projections/{name}). */
export type RebuildProgress = {
  state: "running" | "done" | "failed";
  done: number;
  total: number;
  eventsPerSecond: number;
  secondsLeft: number | null;
  started_at: string;
  finished_at: string | null;
  error?: string;
};

/** A read model: its checkpoint, lag behind the event store, last error and latest rebuild (id = name). */
export type ProjectionRecord = {
  id: string;
  name: string;
  tables: string[];
  status: "live" | "rebuilding" | "not_started";
  position: string | null;
  events_applied: number;
  last_error: string | null;
  updated_at: string | null;
  /** Events in the store after the checkpoint; null when the store cannot count them. */
  lag: number | null;
  rebuild: RebuildProgress | null;
};
