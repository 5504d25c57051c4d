import type pg from "pg";

export type SessionRow = {
  session_id: string; expert_id: string; title: string; description: string; price_cents: string; length_minutes: number;
  prep_questions: string[]; session_details: string; ideal_for: string[]; status: string; deleted: boolean;
  first_name: string | null; last_name: string | null;
};

const SELECT = `SELECT s.session_id, s.expert_id, s.title, s.description, s.price_cents, s.length_minutes, s.prep_questions, s.session_details, s.ideal_for, s.status, s.deleted, e.first_name, e.last_name
  FROM sessions s LEFT JOIN experts e ON e.expert_id = s.expert_id`;

/** The session as the spec's calls return it: whole dollars, prep questions both ways, the expert's name. */
export function sessionView(r: SessionRow) {
  const q = r.prep_questions;
  return {
    id: r.session_id,
    expert_id: r.expert_id,
    title: r.title,
    description: r.description,
    price: Number(r.price_cents) / 100,
    length_minutes: r.length_minutes,
    prep_question_1: q[0] ?? null,
    prep_question_2: q[1] ?? null,
    prep_question_3: q[2] ?? null,
    prep_questions: q,
    session_details: r.session_details,
    ideal_for: r.ideal_for,
    status: r.status,
    expert: { id: r.expert_id, name: [r.first_name, r.last_name].filter(Boolean).join(" "), first_name: r.first_name },
  };
}
export type SessionView = ReturnType<typeof sessionView>;

export async function findSession(db: pg.Pool, sessionId: string): Promise<SessionRow | null> {
  const { rows } = await db.query<SessionRow>(`${SELECT} WHERE s.session_id = $1 AND NOT s.deleted`, [sessionId]);
  return rows[0] ?? null;
}

export async function sessionsOfExpert(db: pg.Pool, expertId: string, includeDrafts: boolean): Promise<SessionRow[]> {
  const { rows } = await db.query<SessionRow>(
    `${SELECT} WHERE s.expert_id = $1 AND NOT s.deleted ${includeDrafts ? "" : "AND s.status = 'published'"} ORDER BY s.created_at, s.session_id`,
    [expertId],
  );
  return rows;
}
