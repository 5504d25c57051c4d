import { formatPosition, parsePosition, type LogPosition, type Migration } from "@booking/contracts";

// Where each creator's last booking request was written in the log (issue 34.2). A request replies as soon as its
// booking is appended (the creator's lock is released then, not once the read models show it), so the next request of
// the same creator, under the lock, first makes sure the read models have reached that position before it decides on
// them. `pending` is set while a request holds the lock and cleared when it lets go: found set, the request before
// stopped halfway (its process died), and the whole log up to its head is waited for instead.

export const creatorWritesMigrations: readonly Migration[] = [
  {
    name: "001_creator_booking_writes",
    sql: `
      CREATE TABLE creator_booking_writes (
        creator_id text PRIMARY KEY,
        -- formatPosition: "commit:prepare" (null: none recorded yet)
        position text,
        pending boolean NOT NULL DEFAULT false,
        updated_at timestamptz NOT NULL DEFAULT now()
      );
    `,
  },
];

/** The creator's last write as the previous holder of their lock left it, and marks this holder's turn as begun. */
export const BEGIN_TURN_SQL = `
  WITH before AS (SELECT position, pending FROM creator_booking_writes WHERE creator_id = $1),
  begun AS (
    INSERT INTO creator_booking_writes (creator_id, pending) VALUES ($1, true)
    ON CONFLICT (creator_id) DO UPDATE SET pending = true, updated_at = now()
  )
  SELECT position, pending FROM before`;

/** Ends a turn that wrote nothing in doubt: with the position written (null: nothing written, the last one stands). */
export const END_TURN_SQL =
  "UPDATE creator_booking_writes SET pending = false, position = COALESCE($2, position), updated_at = now() WHERE creator_id = $1";

export type PreviousTurn = { position: LogPosition | null; unfinished: boolean };

export const previousTurnOf = (row: { position: string | null; pending: boolean } | undefined): PreviousTurn => ({
  position: row?.position ? parsePosition(row.position) : null,
  unfinished: row?.pending ?? false,
});

export const positionText = (position: LogPosition | null): string | null => (position ? formatPosition(position) : null);
