import type { SessionDefinition } from "@booking/contracts";
import { entityProjection } from "../projection.ts";

type SessionRow = {
  session_id: string;
  expert_id: string;
  title: string;
  description: string;
  price_cents: number;
  length_minutes: number;
  prep_questions: string[];
  session_details: string;
  ideal_for: string[];
  status: string;
  deleted: boolean;
  created_at: string;
  updated_at: string;
  stream_version: number;
};

const described = (d: SessionDefinition) => ({
  title: d.title,
  description: d.description,
  price_cents: d.priceCents,
  length_minutes: d.lengthMinutes,
  prep_questions: d.prepQuestions,
  session_details: d.sessionDetails,
  ideal_for: d.idealFor,
});

/** Bookable sessions of each expert. */
export const sessionsProjection = entityProjection<SessionRow>({
  name: "sessions",
  table: "sessions",
  key: ["session_id"],
  columns: [
    "session_id", "expert_id", "title", "description", "price_cents", "length_minutes", "prep_questions", "session_details", "ideal_for", "status", "deleted",
    "created_at", "updated_at", "stream_version",
  ],
  rowKey: ({ event }) => {
    switch (event.type) {
      case "SessionCreated":
      case "SessionUpdated":
      case "SessionPublished":
      case "SessionUnpublished":
      case "SessionDeleted":
        return [event.data.sessionId];
      default:
        return null;
    }
  },
  evolve: (row, { event, stored }) => {
    const at = stored.metadata.at;
    if (event.type === "SessionCreated") {
      if (row) return row; // created once
      const { sessionId, expertId, status, definition } = event.data;
      return { session_id: sessionId, expert_id: expertId, ...described(definition), status, deleted: false, created_at: at, updated_at: at, stream_version: stored.version };
    }
    // Changes to a session that was never created change nothing.
    if (!row) return row;
    const updated = { ...row, updated_at: at, stream_version: stored.version };
    switch (event.type) {
      case "SessionUpdated":
        return { ...updated, ...described(event.data.definition) };
      case "SessionPublished":
        return { ...updated, status: "published" };
      case "SessionUnpublished":
        return { ...updated, status: "draft" };
      case "SessionDeleted":
        return { ...updated, deleted: true };
      default:
        return row;
    }
  },
});
