import type pg from "pg";

// The `payments` table: rows are written by the providers when a payment is created and updated by
// record-payment.ts when its outcome is known.

/** Just what the payments code needs of a pool, so a test can hand over one it creates later. */
export type Queryable = {
  query<R extends pg.QueryResultRow = pg.QueryResultRow>(text: string, values?: unknown[]): Promise<pg.QueryResult<R>>;
};

export type PaymentStatus = "requires_payment" | "succeeded" | "failed";

export type PaymentRow = {
  paymentId: string;
  bookingId: string;
  expertId: string;
  creatorId: string;
  provider: string;
  clientSecret: string | null;
  amountCents: number;
  status: PaymentStatus;
  lastError: string | null;
};

type Row = {
  payment_id: string;
  booking_id: string;
  expert_id: string;
  creator_id: string;
  provider: string;
  client_secret: string | null;
  amount_cents: string; // bigint arrives as text
  status: PaymentStatus;
  last_error: string | null;
};

const COLUMNS = "payment_id, booking_id, expert_id, creator_id, provider, client_secret, amount_cents, status, last_error";

const toPayment = (r: Row): PaymentRow => ({
  paymentId: r.payment_id,
  bookingId: r.booking_id,
  expertId: r.expert_id,
  creatorId: r.creator_id,
  provider: r.provider,
  clientSecret: r.client_secret,
  amountCents: Number(r.amount_cents),
  status: r.status,
  lastError: r.last_error,
});

export async function paymentByClientSecret(db: Queryable, clientSecret: string): Promise<PaymentRow | null> {
  const { rows } = await db.query<Row>(`SELECT ${COLUMNS} FROM payments WHERE client_secret = $1`, [clientSecret]);
  return rows[0] ? toPayment(rows[0]) : null;
}

/**
 * The provider's verdict on a payment. A payment created elsewhere (say, a Stripe intent whose row
 * was never written) gets its row here, with the parties taken from the booking read model.
 * A failure never overwrites a success: Stripe may deliver an earlier attempt's failure late.
 */
export async function markPayment(
  db: Queryable,
  p: {
    paymentId: string;
    bookingId: string;
    provider: string;
    amountCents: number;
    status: "succeeded" | "failed";
    lastError: string | null;
  },
): Promise<void> {
  await db.query(
    `INSERT INTO payments (payment_id, booking_id, expert_id, creator_id, provider, amount_cents, status, last_error)
     SELECT $1, b.booking_id, b.expert_id, b.creator_id, $3, $4, $5, $6 FROM bookings b WHERE b.booking_id = $2
     ON CONFLICT (payment_id) DO UPDATE SET
       status = CASE WHEN payments.status = 'succeeded' THEN 'succeeded' ELSE EXCLUDED.status END,
       last_error = CASE WHEN payments.status = 'succeeded' AND EXCLUDED.status = 'failed' THEN payments.last_error ELSE EXCLUDED.last_error END,
       updated_at = now()`,
    [p.paymentId, p.bookingId, p.provider, p.amountCents, p.status, p.lastError],
  );
}
