import { ERASED_LINK, eventDataAsErased, type BookingParties, type NoShowParty } from "@booking/contracts";
import { erased, erasedList } from "../erasure.ts";
import type { Erasure } from "../projection.ts";
import type { BookingEventRow } from "./booking-events.ts";
import type { BookingRow } from "./bookings.ts";

// What the bookings and their histories read as once a party is erased (issue 33.2): the words of the erased party, and
// what an admin wrote about them, are gone; times, statuses, amounts and the other party's words stay. Whose each field
// is follows contracts' personal-data declarations, as the log reads them once the party's data key is destroyed.

type BookingSide = NoShowParty;

/** A no-show report: its note is the reporter's (the party not reported absent); the contest and the settlement, the absent party's. */
function noShowErased(noShow: NonNullable<BookingRow["no_show"]>, side: BookingSide): BookingRow["no_show"] {
  const reported = noShow.absent === side;
  return {
    ...noShow,
    note: reported ? noShow.note : erased(noShow.note),
    contest_note: reported ? erased(noShow.contest_note) : noShow.contest_note,
    reason: reported ? erased(noShow.reason) : noShow.reason,
  };
}

/** The booking's creator erased: their prep answers, their (or the system's, or an admin's) reason for cancelling. */
function creatorErased(row: BookingRow): BookingRow {
  return {
    ...row,
    prep_answers: erasedList(row.prep_answers),
    cancel_reason: row.cancelled_by === "expert" ? row.cancel_reason : erased(row.cancel_reason),
    no_show: row.no_show && noShowErased(row.no_show, "creator"),
  };
}

/** The booking's expert erased: their question, their notes, their meeting link, their reason for cancelling. */
function expertErased(row: BookingRow): BookingRow {
  const notes = row.notes && {
    ...row.notes,
    summary: erased(row.notes.summary),
    recap: erased(row.notes.recap),
    takeaways: erasedList(row.notes.takeaways),
    suggestedActions: erasedList(row.notes.suggestedActions),
  };
  return {
    ...row,
    info_request_note: erased(row.info_request_note),
    notes,
    join_link: erased(row.join_link, ERASED_LINK),
    cancel_reason: row.cancelled_by === "expert" ? erased(row.cancel_reason) : row.cancel_reason,
    no_show: row.no_show && noShowErased(row.no_show, "expert"),
  };
}

/**
 * A booking as it reads once `userId` (either party) is erased. The reason a move was declined is the decliner's (the
 * expert, or an admin writing for the creator) and the row does not say who declined: it is erased with either party,
 * which the creator it was written for no longer reads once either of them is gone.
 */
export function bookingAsErased(row: BookingRow, userId: string): BookingRow {
  let next: BookingRow = { ...row, reschedule_decline_reason: erased(row.reschedule_decline_reason) };
  if (row.creator_id === userId) next = creatorErased(next);
  if (row.expert_user_id === userId) next = expertErased(next);
  return next;
}

export const bookingErasure: Erasure = {
  rowsOf: () => "t.creator_id = p.user_id OR t.expert_user_id = p.user_id",
  erase: (rows, person) => (rows as BookingRow[]).map((row) => bookingAsErased(row, person.userId)),
};

/**
 * A booking's history keeps each event's data as it is: each is read as the log reads it once the person is erased,
 * its parties (whose a field is, where the event does not name them) taken from the booking's request, in the same rows.
 */
export const bookingEventErasure: Erasure = {
  rowsOf: (table) =>
    `t.booking_id IN (SELECT r.booking_id FROM "${table}" r
       WHERE r.type = 'BookingRequested' AND p.user_id IN (r.data->>'creatorId', r.data->>'expertUserId'))`,
  erase: (rows, person) => {
    const history = rows as BookingEventRow[];
    const parties = new Map<string, BookingParties>();
    for (const row of history) {
      const data = row.data as { creatorId?: string; expertUserId?: string };
      if (row.type === "BookingRequested") parties.set(row.booking_id, { creator: data.creatorId, expert: data.expertUserId });
    }
    return history.map((row) => ({
      ...row,
      data: eventDataAsErased(row.type, row.data, person.userId, parties.get(row.booking_id) ?? {}),
    }));
  },
};
