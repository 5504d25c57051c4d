import {
  formatPosition,
  postingsOf,
  type Currency,
  type LedgerEntryRecord,
  type LedgerPostingRecord,
  type Migration,
  type PostingContext,
} from "@booking/contracts";
import { entityProjection, streamEntityId, type ProjectedEvent } from "../projection.ts";
import { columnsOf, rowFromPg, type ColumnType } from "./column-types.ts";

// The ledger (issue 29.5): every money event's balanced entries (contracts' postingsOf), kept as
// a read model, rebuilt from the log and identical after a replay.
//
// Why books, not a row per entry: some events do not carry all their postings need. Cancelled,
// RefundDue, RefundIssued and DisputeClosed have no currency (it is the booking's); PayoutPaid, and PayoutFailed
// after it, have no amount (it is their PayoutRequested's). What they need is an earlier event of the same stream and the same
// booking or payout, so the ledger keeps one row ("book") per booking or payout, holding that
// memory and the book's postings (per event, its lines), and the runners' own rule applies: an entity read model,
// the row folded event by event, written once per batch, a stream's events in order. Its queries
// read the entries out of the books (ledger-queries.ts). A booking's book opens at its payment,
// which carries its currency (an unpaid booking has no money to refund): a booking's request, the
// commonest event, costs the ledger no read and no write. The books:
//   booking:{bookingId}              the booking's money on its expert's calendar: payment and refunds
//   earning:{bookingId}              its release, adjustments, transfer and reversals (payouts stream)
//   payout:{expertId}:{payoutKey}    a payout: its requested amount, and its posting once paid

/** A book of the ledger: what its later postings need, and its postings in the log's order. */
export type LedgerBookRow = {
  book_id: string;
  /** The expert whose stream the book follows. */
  expert_id: string;
  booking_id: string | null;
  /** The booking's currency (from its request or payment), or the payout's; null: none said (US dollars). */
  currency: Currency | null;
  /** A payout's requested amount (its PayoutPaid posts it, and a PayoutFailed after it takes it back). */
  requested_cents: number | null;
  /** Version 1's entries (jsonb, a record per line), for its processes still running during a deploy: this rule writes none. */
  entries: unknown[];
  /** Version 2's postings (objects), for its processes still running during a deploy: this rule writes none. */
  postings: unknown[] | null;
  /** The book's postings, one per money event, in the log's order. */
  journal: LedgerPostingRecord[];
  stream_version: number;
};

const ledgerBookColumnTypes = {
  book_id: "text",
  expert_id: "text",
  booking_id: "text",
  currency: "text",
  requested_cents: "bigint",
  entries: "jsonb",
  postings: "json",
  journal: "json",
  stream_version: "bigint",
} as const satisfies Record<keyof LedgerBookRow, ColumnType>;

export const ledgerBookColumns = columnsOf<LedgerBookRow>(ledgerBookColumnTypes);
export const ledgerBookFromPg = (raw: Record<string, unknown>): LedgerBookRow => rowFromPg<LedgerBookRow>(ledgerBookColumnTypes, raw);

export const ledgerMigrations: readonly Migration[] = [
  {
    name: "017_ledger_books",
    sql: `
      CREATE TABLE ledger_books (
        book_id text PRIMARY KEY,
        expert_id text NOT NULL,
        booking_id text,
        currency text,
        requested_cents bigint,
        entries jsonb NOT NULL,
        stream_version bigint NOT NULL
      );
      CREATE INDEX ledger_books_booking ON ledger_books (booking_id);
      CREATE INDEX ledger_books_expert ON ledger_books (expert_id);
    `,
  },
  {
    // Version 2's compact postings, in a column of their own so that version 1's processes, still
    // running during a deploy, read their own column (empty in version 2's rows) rather than fail,
    // and adding it is instant. json, not jsonb: the postings are written and read whole (the
    // queries take them apart), so Postgres need not build jsonb's tree on every write; a rebuild
    // writes every posting of the log, and its time is the ledger's cost (npm run bench). A
    // booking's money trail reads its two books by id: the booking index goes.
    name: "020_ledger_postings",
    sql: "ALTER TABLE ledger_books ADD COLUMN postings json; DROP INDEX ledger_books_booking;",
  },
  {
    // Version 3's postings are tuples, not objects: a third less to encode, copy and parse in a
    // rebuild. In a column of their own, as in 020: version 2's processes still running during a
    // deploy keep reading `postings`, and the rebuild at start replaces every book.
    name: "021_ledger_journal",
    sql: "ALTER TABLE ledger_books ADD COLUMN journal json;",
  },
];

/** The book an event posts to or informs, or null for an event the ledger ignores. */
export function ledgerBookOf({ event, stored }: ProjectedEvent): string | null {
  const calendar = stored.streamId.startsWith("calendar-");
  const payouts = stored.streamId.startsWith("payouts-");
  switch (event.type) {
    case "PaymentSucceeded":
    case "Cancelled":
    case "RefundDue":
    case "RefundIssued":
    case "DisputeClosed":
      return calendar ? `booking:${event.data.bookingId}` : null;
    case "EarningReleased":
    case "EarningAdjusted":
    case "TransferSent":
    case "TransferReversed":
      return payouts ? `earning:${event.data.bookingId}` : null;
    case "PayoutRequested":
    case "PayoutPaid":
    case "PayoutFailed":
      return payouts ? `payout:${event.data.expertId}:${event.data.payoutKey}` : null;
    default:
      return null;
  }
}

/** What an event's postings need of its book's earlier events. */
function contextOf(row: LedgerBookRow): PostingContext {
  const currency = row.currency ?? undefined;
  const payoutRequested = row.requested_cents !== null && currency ? { amountCents: row.requested_cents, currency } : undefined;
  return { ...(currency && { bookingCurrency: currency }), ...(payoutRequested && { payoutRequested }) };
}

/** What the book remembers of an event for the postings after it. */
function remembered(row: LedgerBookRow, { event }: ProjectedEvent): Pick<LedgerBookRow, "currency" | "requested_cents"> {
  switch (event.type) {
    case "PaymentSucceeded":
    case "EarningReleased":
    case "EarningAdjusted":
    case "TransferSent":
    case "TransferReversed":
      return { currency: row.currency ?? event.data.currency ?? null, requested_cents: row.requested_cents };
    case "PayoutRequested":
      return { currency: event.data.currency, requested_cents: event.data.amountCents };
    default:
      return { currency: row.currency, requested_cents: row.requested_cents };
  }
}

/** The whole rule: a book as it was (undefined: none yet) and an event, to the book after it. */
export function evolveLedgerBook(row: LedgerBookRow | undefined, e: ProjectedEvent): LedgerBookRow | undefined {
  const bookId = ledgerBookOf(e);
  if (!bookId) return row;
  const { event, stored } = e;
  const bookingId = "bookingId" in event.data ? event.data.bookingId : null;
  // A row an older version wrote (before its rebuild replaces it) has no journal yet.
  const book: LedgerBookRow = row
    ? { ...row, journal: row.journal ?? [] }
    : {
        book_id: bookId,
        expert_id: streamEntityId(stored.streamId),
        booking_id: bookingId,
        currency: null,
        requested_cents: null,
        entries: [],
        postings: null,
        journal: [],
        stream_version: stored.version,
      };
  const lines = postingsOf(event, contextOf(book));
  const memory = remembered(book, e);
  const unchanged = memory.currency === book.currency && memory.requested_cents === book.requested_cents && lines.length === 0;
  // Unchanged, an existing book stays as it is and a new one is not opened (a cancelled unpaid booking).
  if (unchanged) return row;
  if (lines.length === 0) return { ...book, ...memory, stream_version: stored.version };
  const currency = lines[0]!.currency;
  if (lines.some((l) => l.currency !== currency))
    throw new Error(`ledger: ${event.type} ${stored.eventId} posts in more than one currency`);
  const posting: LedgerPostingRecord = [
    stored.eventId,
    formatPosition(stored.position),
    stored.metadata.at,
    event.type,
    currency,
    lines.map((l) => [l.account, l.debitCents, l.creditCents]),
  ];
  return { ...book, ...memory, journal: [...book.journal, posting], stream_version: stored.version };
}

/** A book's entries, a line each, as the ledger's queries read them out of Postgres (ledger-queries.ts). */
export function bookEntries(book: LedgerBookRow): LedgerEntryRecord[] {
  return book.journal.flatMap(([event_id, position, at, event_type, currency, lines]) =>
    lines.map(([account, debit, credit]) => ({
      event_id,
      position,
      at,
      event_type,
      booking_id: book.booking_id,
      expert_id: book.expert_id,
      account,
      currency,
      debit_cents: debit,
      credit_cents: credit,
    })),
  );
}

/** The double-entry ledger, derived from the money events. */
export const ledgerProjection = entityProjection<LedgerBookRow>({
  name: "ledger",
  // 2: a booking's book opens at its payment, not at its request; a posting per event, its lines compact.
  // 3: each posting a tuple, in `journal`.
  version: 3,
  table: "ledger_books",
  key: ["book_id"],
  columns: ledgerBookColumns,
  // Its queries read books by id (the unique key) or by expert, or all of them: sampling the long
  // text ids for statistics cost a rebuild as much as indexing them (npm run bench, ledger cost).
  statistics: ["expert_id"],
  rowKey: (e) => {
    const book = ledgerBookOf(e);
    return book ? [book] : null;
  },
  evolve: evolveLedgerBook,
});
