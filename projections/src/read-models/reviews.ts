import {
  reviewEditableUntil,
  type AdminReviewReply,
  type BookingReviewReply,
  type ExpertReview,
  type Migration,
  type ReviewRecord,
} from "@booking/contracts";
import { erased } from "../erasure.ts";
import { entityProjection, type ProjectedEvent } from "../projection.ts";
import type { Queryable } from "./bookings-queries.ts";
import { columnsOf, rowFromPg, type ColumnType } from "./column-types.ts";

// The `reviews` read model, whole: one row per reviewed booking (stream `review-{bookingId}`),
// hidden ones included; the per-expert rating (average and count of the visible reviews) is read
// from it, so it is rebuilt with it. Its queries, the replies made of it and the admin list's sort.

/** A row of the `reviews` read model: declared once, in contracts. */
export type ReviewRow = ReviewRecord;

/** What Postgres holds in each column, tied to the Row by the compiler; the column list is its keys. */
const reviewColumnTypes = {
  booking_id: "text",
  review_id: "text",
  expert_id: "text",
  creator_id: "text",
  rating: "int",
  text: "text",
  created_at: "timestamptz",
  edited_at: "timestamptz",
  reply_text: "text",
  replied_at: "timestamptz",
  hidden: "boolean",
  hidden_reason: "text",
  hidden_by: "text",
  hidden_at: "timestamptz",
  stream_version: "bigint",
} as const satisfies Record<keyof ReviewRow, ColumnType>;

export const reviewColumns = columnsOf<ReviewRow>(reviewColumnTypes);

/** A row as pg returns it, in the Row's JSON shape. */
export const reviewFromPg = (raw: Record<string, unknown>): ReviewRow => rowFromPg<ReviewRow>(reviewColumnTypes, raw);

export const reviewMigrations: readonly Migration[] = [
  {
    name: "006_reviews",
    sql: `
      CREATE TABLE reviews (
        booking_id text PRIMARY KEY,
        review_id text NOT NULL,
        expert_id text NOT NULL,
        creator_id text NOT NULL,
        rating int NOT NULL,
        text text NOT NULL,
        created_at timestamptz NOT NULL,
        edited_at timestamptz,
        reply_text text,
        replied_at timestamptz,
        hidden boolean NOT NULL DEFAULT false,
        hidden_reason text,
        hidden_by text,
        hidden_at timestamptz,
        stream_version bigint NOT NULL
      );
      -- The profile's reviews and the listing's rating read an expert's visible reviews.
      CREATE INDEX reviews_expert_visible ON reviews (expert_id, created_at DESC) WHERE NOT hidden;
    `,
  },
];

/** Reviews of bookings: the profile's block, the listing's rating, the console's list. */
export const reviewsProjection = entityProjection<ReviewRow>({
  name: "reviews",
  version: 1,
  table: "reviews",
  key: ["booking_id"],
  columns: reviewColumns,
  rowKey: ({ event }) =>
    event.type === "ReviewLeft" || event.type === "ReviewEdited" || event.type === "ReviewReplied" || event.type === "ReviewHidden"
      ? [event.data.bookingId]
      : null,
  evolve: evolveReview,
  // Issue 33.2: an erased creator's review keeps its rating, not its words (nor an admin's reason for hiding it); an
  // erased expert's reply goes.
  erasure: {
    rowsOf: () => "t.creator_id = p.user_id OR t.expert_id = ANY(p.expert_ids)",
    erase: (rows, person) =>
      (rows as ReviewRow[]).map((r) => {
        const creator = r.creator_id === person.userId;
        const expert = person.expertIds.includes(r.expert_id);
        return {
          ...r,
          ...(creator && { text: erased(r.text), hidden_reason: erased(r.hidden_reason) }),
          ...(expert && { reply_text: erased(r.reply_text) }),
        };
      }),
  },
});

/** The whole rule of the read model: the row as it was (undefined: none yet) and an event, to the row after it. */
export function evolveReview(row: ReviewRow | undefined, { event, stored }: ProjectedEvent): ReviewRow | undefined {
  const at = stored.metadata.at;
  const version = stored.version;
  if (event.type === "ReviewLeft") {
    if (row) return row; // left once; the decider refuses a second
    const d = event.data;
    return {
      booking_id: d.bookingId,
      review_id: d.reviewId,
      expert_id: d.expertId,
      creator_id: d.creatorId,
      rating: d.rating,
      text: d.text,
      created_at: d.leftAt,
      edited_at: null,
      reply_text: null,
      replied_at: null,
      hidden: false,
      hidden_reason: null,
      hidden_by: null,
      hidden_at: null,
      stream_version: version,
    };
  }
  // Every later event changes a review that was left; before that there is nothing to change.
  if (!row) return row;
  switch (event.type) {
    case "ReviewEdited":
      return { ...row, rating: event.data.rating, text: event.data.text, edited_at: event.data.editedAt, stream_version: version };
    case "ReviewReplied":
      return { ...row, reply_text: event.data.text, replied_at: event.data.repliedAt, stream_version: version };
    case "ReviewHidden":
      return { ...row, hidden: true, hidden_reason: event.data.reason, hidden_by: event.data.by, hidden_at: at, stream_version: version };
    default:
      return row;
  }
}

// Readers.

/** Every column of the table, as `r.column` (the alias every query here uses). */
export const reviewSelectList = reviewColumns.map((c) => `r.${c}`).join(", ");

/** A review with its creator's and expert's names (from the users and experts read models; null while unknown). */
export type ReviewWithNames = ReviewRow & {
  creator_first_name: string | null;
  creator_last_name: string | null;
  expert_first_name: string | null;
  expert_last_name: string | null;
};

/** The FROM clause of a review with names: `r`, its creator `u`, its expert `e`. */
export const reviewsWithNamesFrom =
  "reviews r LEFT JOIN users u ON u.user_id = r.creator_id LEFT JOIN experts e ON e.expert_id = r.expert_id";
export const reviewWithNamesSelectList =
  `${reviewSelectList}, u.first_name AS creator_first_name, u.last_name AS creator_last_name, e.first_name AS ` +
  `expert_first_name, e.last_name AS expert_last_name`;

export const reviewWithNamesFromPg = (raw: Record<string, unknown>): ReviewWithNames => ({
  ...reviewFromPg(raw),
  creator_first_name: (raw.creator_first_name as string | null) ?? null,
  creator_last_name: (raw.creator_last_name as string | null) ?? null,
  expert_first_name: (raw.expert_first_name as string | null) ?? null,
  expert_last_name: (raw.expert_last_name as string | null) ?? null,
});

export async function findReview(db: Queryable, bookingId: string): Promise<ReviewWithNames | null> {
  const raw = (await db.query(`SELECT ${reviewWithNamesSelectList} FROM ${reviewsWithNamesFrom} WHERE r.booking_id = $1`, [bookingId]))
    .rows[0];
  return raw ? reviewWithNamesFromPg(raw) : null;
}

/** Where a page of an expert's reviews starts: after this review in the profile's order (newest first). */
export type ReviewsCursor = { createdAt: string; bookingId: string };
/** A page of an expert's visible reviews, newest first, and where the next page starts (null: this is the last). */
export type ReviewsPage = { reviews: ReviewWithNames[]; next: ReviewsCursor | null };

/**
 * One page of an expert's visible reviews (issue 34.5), by keyset: written time then booking id, both
 * descending, so a page starts strictly after the last review of the one before whatever is written
 * meanwhile, and any page costs the same (no OFFSET). One row more than the page tells whether another follows.
 */
export async function visibleReviewsPage(
  db: Queryable,
  expertId: string,
  page: { after: ReviewsCursor | null; limit: number },
): Promise<ReviewsPage> {
  const after = page.after ? "AND (r.created_at, r.booking_id) < ($3::timestamptz, $4)" : "";
  const { rows } = await db.query(
    `SELECT ${reviewWithNamesSelectList} FROM ${reviewsWithNamesFrom} WHERE r.expert_id = $1 AND NOT r.hidden ${after} ` +
      "ORDER BY r.created_at DESC, r.booking_id DESC LIMIT $2",
    [expertId, page.limit + 1, ...(page.after ? [page.after.createdAt, page.after.bookingId] : [])],
  );
  const reviews = rows.slice(0, page.limit).map(reviewWithNamesFromPg);
  const last = reviews.at(-1);
  return { reviews, next: rows.length > page.limit && last ? { createdAt: last.created_at, bookingId: last.booking_id } : null };
}

/**
 * The rating of the expert `e.expert_id` as two SQL columns, `rating` (the visible reviews'
 * average, one decimal; null with none) and `review_count`: the listing selects them.
 */
export const expertRatingColumns = `
  (SELECT round(avg(r.rating), 1) FROM reviews r WHERE r.expert_id = e.expert_id AND NOT r.hidden) AS rating,
  (SELECT count(*) FROM reviews r WHERE r.expert_id = e.expert_id AND NOT r.hidden) AS review_count`;

/** An expert's rating from the columns above, as numbers. */
export const expertRatingFromPg = (raw: Record<string, unknown>): { rating: number | null; review_count: number } => ({
  rating: raw.rating === null || raw.rating === undefined ? null : Number(raw.rating),
  review_count: Number(raw.review_count ?? 0),
});

/** The spec's reviewer: first name plus last initial, nothing more of their name. */
function reviewer(first: string | null, last: string | null): ExpertReview["creator"] {
  const initial = [...(last ?? "").trim()][0]; // a whole character, even outside the BMP
  return { first_name: first ?? "", last_initial: initial ? `${initial.toUpperCase()}.` : "" };
}

/** A review as the public profile shows it (contracts' ExpertReview). */
export function expertReview(r: ReviewWithNames): ExpertReview {
  return {
    id: r.review_id,
    rating: r.rating,
    review: r.text,
    created_at: r.created_at,
    creator: reviewer(r.creator_first_name, r.creator_last_name),
    reply: r.reply_text === null ? null : { text: r.reply_text, created_at: r.replied_at ?? r.created_at },
  };
}

/** A booking's review as its parties see it (contracts' BookingReviewReply). */
export function bookingReviewReply(r: ReviewRow): BookingReviewReply {
  return {
    id: r.review_id,
    booking_id: r.booking_id,
    rating: r.rating,
    text: r.text,
    created_at: r.created_at,
    edited_at: r.edited_at,
    editable_until: reviewEditableUntil(r.created_at),
    reply: r.reply_text === null ? null : { text: r.reply_text, created_at: r.replied_at ?? r.created_at },
    hidden: r.hidden,
  };
}

const fullName = (first: string | null, last: string | null) => [first, last].filter(Boolean).join(" ") || null;

/** A review as the console lists it: the row as it is, keyed by its booking, with the parties' names. */
export function adminReviewReply(r: ReviewWithNames): AdminReviewReply {
  const { creator_first_name, creator_last_name, expert_first_name, expert_last_name, ...row } = r;
  return {
    id: r.booking_id,
    ...row,
    creator_name: fullName(creator_first_name, creator_last_name),
    expert_name: fullName(expert_first_name, expert_last_name),
  };
}

/** The admin list's sort whitelist: the columns an operator may order by, as SQL over `r`. */
export const reviewListSort: Record<string, string | string[]> = {
  id: "r.booking_id",
  ...Object.fromEntries(
    (["rating", "created_at", "edited_at", "hidden", "expert_id", "creator_id"] as const satisfies readonly (keyof ReviewRow)[]).map(
      (c) => [c, `r.${c}`],
    ),
  ),
};
