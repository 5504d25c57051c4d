import { AsyncLocalStorage } from "node:async_hooks";
import { comparePositions, type LogPosition } from "@booking/contracts";

// Where in the log the commands of the request being served wrote (issue 34.1): its reply names the newest
// (consistency-position.ts). Kept per request in async context, so a command deep in a route needs no reply object.

type RequestWrites = { newest: LogPosition | null };
const writes = new AsyncLocalStorage<RequestWrites>();

/** `next` (the rest of the request) runs with a record of its writes of its own. */
export const withRequestWrites = (next: () => void): void => writes.run({ newest: null }, next);

/** A command of this request wrote up to `position`. Outside a request (a sweeper, a reactor): nothing to say. */
export function recordWritten(position: LogPosition | null): void {
  const store = writes.getStore();
  if (!store || !position) return;
  if (!store.newest || comparePositions(position, store.newest) > 0) store.newest = position;
}

/** The newest position this request wrote (null: none). */
export const newestWritten = (): LogPosition | null => writes.getStore()?.newest ?? null;
