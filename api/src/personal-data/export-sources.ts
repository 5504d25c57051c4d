// What the product holds about one person, read model by read model (issue 33.3). Each source is one
// statement over :user (the user's id), $2 (the expert ids of their profiles) and $3 (their bookings'
// ids), returning the rows as the read model holds them; columns that are secrets (password hashes,
// token hashes, sealed calendar addresses) or other people's mail are left out by name.

export type ExportSource = { name: string; about: string; sql: string };

export const EXPORT_SOURCES: readonly ExportSource[] = [
  {
    name: "account",
    about: "Your sign-in account (the password is kept only as a hash, which is not included).",
    sql: `SELECT user_id, email, role, first_name, last_name, created_at, password_changed_at FROM accounts WHERE user_id = :user`,
  },
  { name: "user", about: "You as the marketplace shows you.", sql: `SELECT * FROM users WHERE user_id = :user` },
  {
    name: "terms_acceptances",
    about: "The terms you accepted, and when.",
    sql: `SELECT * FROM terms_acceptances WHERE user_id = :user ORDER BY accepted_at`,
  },
  { name: "expert_profiles", about: "Your expert profile.", sql: `SELECT * FROM experts WHERE user_id = :user` },
  {
    name: "sessions",
    about: "The sessions you offer as an expert.",
    sql: `SELECT * FROM sessions WHERE expert_id = ANY(:experts) ORDER BY created_at, session_id`,
  },
  {
    name: "schedules",
    about: "Your weekly hours, time off and booking rules.",
    sql: `SELECT * FROM schedules WHERE expert_id = ANY(:experts)`,
  },
  {
    name: "bookings",
    about: "Every booking you made or received, whatever its status.",
    sql: `SELECT * FROM bookings WHERE creator_id = :user OR expert_user_id = :user ORDER BY scheduled_time, booking_id`,
  },
  {
    name: "messages",
    about: "The conversations of your bookings.",
    sql: `SELECT * FROM messages WHERE booking_id = ANY(:bookings) ORDER BY booking_id, seq`,
  },
  {
    name: "conversation_reading",
    about: "How far you read each conversation, and which you muted.",
    sql: `SELECT * FROM conversation_readers WHERE user_id = :user ORDER BY booking_id`,
  },
  {
    name: "reviews",
    about: "Reviews you wrote, and reviews of your sessions with your replies.",
    sql: `SELECT * FROM reviews WHERE creator_id = :user OR expert_id = ANY(:experts) ORDER BY created_at, booking_id`,
  },
  {
    name: "earnings",
    about: "Your earnings by month, as an expert.",
    sql: `SELECT * FROM earnings WHERE expert_id = ANY(:experts) ORDER BY month`,
  },
  {
    name: "payout_account",
    about: "Where you are paid, as the payment provider reported it.",
    sql: `SELECT * FROM payout_experts WHERE expert_id = ANY(:experts)`,
  },
  {
    name: "payouts",
    about: "Payouts to you.",
    sql: `SELECT payout_key, expert_id, amount_cents, currency, status, payout_id, failure_reason, requested_at, paid_at, failed_at
          FROM payout_payouts WHERE expert_id = ANY(:experts) ORDER BY requested_at`,
  },
  {
    name: "connected_calendars",
    about: "The calendars you connected (their secret addresses and passwords are not included).",
    sql: `SELECT c.connection_id, c.kind, c.label, c.all_day_blocks, c.created_at, c.last_synced_at, c.last_error,
            coalesce(json_agg(json_build_object('name', k.name, 'blocks', k.blocks, 'receives_bookings', k.receives_bookings))
              FILTER (WHERE k.calendar_id IS NOT NULL), '[]') AS calendars
          FROM calendar_connections c LEFT JOIN external_calendars k USING (connection_id)
          WHERE c.expert_id = :user GROUP BY c.connection_id ORDER BY c.created_at`,
  },
  {
    name: "mails",
    about: "The mails we sent or queued for you.",
    sql: `SELECT message_id, kind, to_address, subject, text_body, booking_id, created_at, status FROM mail_outbox
          WHERE user_id = :user ORDER BY created_at, message_id`,
  },
  {
    name: "sign_ins",
    about: "Each sign-in: when it started, when it was last renewed, and when it ended.",
    sql: `SELECT family_id AS sign_in_id, min(created_at) AS started_at, max(created_at) AS last_renewed_at, max(revoked_at) AS ended_at
          FROM refresh_tokens WHERE user_id = :user GROUP BY family_id ORDER BY min(created_at)`,
  },
  {
    name: "early_access_request",
    about: "The early access request made with your address, if any.",
    sql: `SELECT r.* FROM early_access_requests r JOIN accounts a ON lower(a.email) = lower(r.email) WHERE a.user_id = :user`,
  },
];
