import { SessionStatus } from "@booking/contracts";

/** A bookable session of the `sessions` read model (GET /admin/sessions), deleted ones included. */
export type Session = {
  id: string;
  session_id: string;
  expert_id: string;
  title: string;
  description: string;
  price_cents: number;
  length_minutes: number;
  prep_questions: string[];
  session_details: string;
  ideal_for: string[];
  status: SessionStatus;
  deleted: boolean;
  created_at: string;
  updated_at: string;
  stream_version: number;
};

export const sessionStatusChoices = SessionStatus.options.map((id) => ({ id, name: id === "draft" ? "Draft" : "Published" }));
