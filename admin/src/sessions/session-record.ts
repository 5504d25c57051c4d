import { SessionStatus, type AdminSessionReply } from "@booking/contracts";

/** A bookable session of the `sessions` read model as GET /admin/sessions sends it (contracts' AdminSessionReply), deleted ones included. */
export type Session = AdminSessionReply;

export const sessionStatusChoices = SessionStatus.options.map((id) => ({ id, name: id === "draft" ? "Draft" : "Published" }));
