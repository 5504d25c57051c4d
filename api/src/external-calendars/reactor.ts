import type pg from "pg";
import type { EventLog, StoredEvent } from "@booking/contracts";
import { oneLine } from "@booking/event-store";
import { bookingInviteFacts, joinLinksOf } from "@booking/projections";
import { bookingInvite, calendarText, type InviteSettings } from "../calendar-invites/index.ts";
import { LeasedReactor, type LeasedReactorOptions } from "../reactors/index.ts";
import { calDavAccount } from "./caldav-account.ts";
import { bookingsCalendarOf, calendarWithConnection, type CalendarRow, type ConnectionRow } from "./connections-table.ts";
import type { SecretBox } from "./secret-box.ts";
import { calDavCredentialsOf } from "./sync.ts";
import { markWriteDue, recordWriteDeferred, recordWritten, takeDueWrites, type BookingWriteRow } from "./writes-table.ts";

// Confirmed bookings written into the CalDAV calendar the expert chose (issue 32): the same UID as
// our iCal files, so the entry is one and the same everywhere; put again when the booking moves or
// its link changes, removed when it is cancelled or the expert chooses another calendar. The log is
// read into external_booking_writes with the checkpoint (a change is never lost), and each due
// write asks the booking read model for what to write once it shows the change.

export type BookingCalendarWriterDeps = {
  log: EventLog;
  db: pg.Pool;
  box: SecretBox;
  /** The SSRF-checking fetch (calendar-fetch.ts). */
  fetch: typeof globalThis.fetch;
  clock: () => string;
  /** Where booking links point, what host names the UIDs, the meeting room template. */
  invites: InviteSettings;
};

/** Events that change what the expert's calendar should show of a booking: there or not, when, where to join. */
const CHANGES_THE_ENTRY = new Set(["Confirmed", "Cancelled", "RescheduleAccepted", "JoinLinkSet", "NoShowSettled"]);
/** While the booking read model has not caught up with a change, look again this soon. */
const READ_MODEL_WAIT_MS = 1_000;

const onCalendar = (d: { calendar: CalendarRow; connection: ConnectionRow } | null, row: BookingWriteRow) =>
  d !== null && d.calendar.calendar_id === row.calendar_id;

export class BookingCalendarWriter extends LeasedReactor {
  constructor(
    private readonly deps: BookingCalendarWriterDeps,
    options: LeasedReactorOptions = {},
  ) {
    super(deps, { name: "external-booking-writes", checkpoints: "external_booking_write_checkpoints" }, options);
  }

  protected async record(client: pg.PoolClient, batch: readonly StoredEvent[]): Promise<void> {
    for (const e of batch) {
      if (!e.streamId.startsWith("calendar-") || !CHANGES_THE_ENTRY.has(e.type)) continue;
      const { bookingId } = e.data as { bookingId: string };
      await markWriteDue(client, bookingId, e.streamId.slice("calendar-".length), e.version, this.deps.clock());
    }
  }

  /** Write every booking due now; resolves to how many were handled. */
  async writeDue(limit = 20): Promise<number> {
    const now = this.deps.clock();
    const due = await takeDueWrites(this.deps.db, now, this.leaseUntil(now), limit);
    for (const row of due) await this.write(row);
    return due.length;
  }

  /** Follow the log to its end and write what is due, once (tests and the loop both use it). */
  async runOnce(): Promise<{ read: number; written: number }> {
    const read = await this.followToEnd();
    return { read, written: await this.writeDue() };
  }

  protected async pass(): Promise<void> {
    await this.runOnce();
  }

  private async write(row: BookingWriteRow): Promise<void> {
    const { db, box, fetch, clock, invites } = this.deps;
    const facts = await bookingInviteFacts(db, row.booking_id);
    if (!facts || facts.stream_version < row.wanted_version) {
      await recordWriteDeferred(db, row.booking_id, new Date(Date.parse(clock()) + READ_MODEL_WAIT_MS).toISOString(), null);
      return;
    }
    try {
      const target = await bookingsCalendarOf(db, row.expert_id);
      // Confirmed, or over as it was held: the entry stays. Cancelled, or never confirmed: none.
      const wanted = facts.status !== "cancelled" && ["confirmed", "completed", "expert_no_show", "creator_no_show"].includes(facts.status);
      if (row.object_url && row.calendar_id && !(wanted && onCalendar(target, row))) {
        const old = await calendarWithConnection(db, row.calendar_id);
        // A disconnected calendar took its credentials with it: its copy is the expert's to delete.
        if (old) await calDavAccount(calDavCredentialsOf(box, old.connection), fetch).removeEvent(row.object_url);
      }
      if (!wanted || !target) return recordWritten(db, row, null);
      const text = calendarText({
        method: null,
        host: new URL(invites.publicUrl).host,
        invites: [bookingInvite(facts, facts.expert_user_id, await joinLinksOf(db, [facts.booking_id]), invites)],
      });
      const account = calDavAccount(calDavCredentialsOf(box, target.connection), fetch);
      const put = await account.putEvent(target.calendar.url!, `booking-${facts.booking_id}.ics`, text);
      await recordWritten(db, row, { calendarId: target.calendar.calendar_id, objectUrl: put.url, start: facts.scheduled_time });
    } catch (e) {
      await recordWriteDeferred(db, row.booking_id, this.nextAttemptAt(row.attempts + 1), oneLine(e).slice(0, 500));
      this.warn(`external-booking-writes: booking ${row.booking_id} not written (attempt ${row.attempts + 1}): ${oneLine(e)}`);
    }
  }
}
