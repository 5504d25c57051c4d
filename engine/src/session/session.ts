import {
  ok,
  refused,
  type Result,
  type SessionCommand,
  type SessionDefinition,
  type SessionEvent,
  type SessionStatus,
} from "@booking/contracts";
import type { Decider } from "../decider.ts";

// Stream `session-{sessionId}`: a bookable session's definition and whether it is live.

export type SessionState =
  | { kind: "none" }
  | { kind: "saved"; expertId: string; status: SessionStatus; definition: SessionDefinition }
  | { kind: "deleted"; expertId: string };

export const initialSessionState = (): SessionState => ({ kind: "none" });

export function evolveSession(state: SessionState, events: readonly SessionEvent[]): SessionState {
  let s = state;
  for (const e of events) {
    switch (e.type) {
      case "SessionCreated":
        s = { kind: "saved", expertId: e.data.expertId, status: e.data.status, definition: e.data.definition };
        break;
      case "SessionUpdated":
        if (s.kind === "saved") s = { ...s, definition: e.data.definition };
        break;
      case "SessionPublished":
        if (s.kind === "saved") s = { ...s, status: "published" };
        break;
      case "SessionUnpublished":
        if (s.kind === "saved") s = { ...s, status: "draft" };
        break;
      case "SessionDeleted":
        if (s.kind !== "none") s = { kind: "deleted", expertId: s.expertId };
        break;
    }
  }
  return s;
}

export function decideSession(c: SessionCommand, s: SessionState): Result<SessionEvent[]> {
  const admin = c.actor.role === "admin";
  if (c.actor.role !== "expert" && !admin) return refused("not_session_owner");
  if (c.type === "CreateSession") {
    if (s.kind !== "none") return refused("session_already_exists");
    return ok([
      { type: "SessionCreated", data: { sessionId: c.sessionId, expertId: c.expertId, status: c.status, definition: c.definition } },
    ]);
  }
  // Rule: publishing or deleting needs a saved session (spec section 5).
  if (s.kind === "none") {
    if (c.type === "DeleteSession") return refused("session_not_saved_delete");
    if (c.type === "PublishSession" || c.type === "UnpublishSession") return refused("session_not_saved_publish");
    return refused("session_not_found");
  }
  if (!admin && s.expertId !== c.expertId) return refused("not_session_owner");
  if (s.kind === "deleted") return refused("session_not_found");
  const sessionId = c.sessionId;
  switch (c.type) {
    case "UpdateSession":
      return ok([{ type: "SessionUpdated", data: { sessionId, definition: c.definition } }]);
    case "PublishSession":
      return ok(s.status === "published" ? [] : [{ type: "SessionPublished", data: { sessionId } }]);
    case "UnpublishSession":
      return ok(s.status === "draft" ? [] : [{ type: "SessionUnpublished", data: { sessionId } }]);
    case "DeleteSession":
      return ok([{ type: "SessionDeleted", data: { sessionId } }]);
  }
}

export const sessionDecider: Decider<SessionCommand, SessionEvent, SessionState> = {
  initialState: initialSessionState,
  evolve: evolveSession,
  decide: (c, s) => decideSession(c, s),
};

export const sessionStream = (sessionId: string) => `session-${sessionId}`;
