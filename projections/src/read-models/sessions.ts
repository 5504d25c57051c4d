import { sql, type Projection } from "../projection.ts";

/** Bookable sessions of each expert. */
export const sessionsProjection: Projection = {
  name: "sessions",
  tables: ["sessions"],
  project: ({ event, stored }) => {
    const v = stored.version;
    const at = stored.metadata.at;
    const set = (assignments: string, sessionId: string, ...values: unknown[]) =>
      sql(`UPDATE sessions SET ${assignments}, updated_at = $2, stream_version = $3 WHERE session_id = $1 AND stream_version < $3`, sessionId, at, v, ...values);
    switch (event.type) {
      case "SessionCreated": {
        const { sessionId, expertId, status, definition: d } = event.data;
        return [
          sql(
            `INSERT INTO sessions (session_id, expert_id, title, description, price_cents, length_minutes, prep_questions, session_details, ideal_for, status, created_at, updated_at, stream_version)
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $11, $12)
             ON CONFLICT (session_id) DO NOTHING`,
            sessionId, expertId, d.title, d.description, d.priceCents, d.lengthMinutes, JSON.stringify(d.prepQuestions), d.sessionDetails, JSON.stringify(d.idealFor), status, at, v,
          ),
        ];
      }
      case "SessionUpdated": {
        const d = event.data.definition;
        return [
          set(
            "title = $4, description = $5, price_cents = $6, length_minutes = $7, prep_questions = $8, session_details = $9, ideal_for = $10",
            event.data.sessionId, d.title, d.description, d.priceCents, d.lengthMinutes, JSON.stringify(d.prepQuestions), d.sessionDetails, JSON.stringify(d.idealFor),
          ),
        ];
      }
      case "SessionPublished":
        return [set("status = 'published'", event.data.sessionId)];
      case "SessionUnpublished":
        return [set("status = 'draft'", event.data.sessionId)];
      case "SessionDeleted":
        return [set("deleted = true", event.data.sessionId)];
      default:
        return [];
    }
  },
};
