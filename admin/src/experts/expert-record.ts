import type { AdminExpertReply } from "@booking/contracts";

/** An expert of the `experts` read model as GET /admin/experts sends it (contracts' AdminExpertReply). */
export type Expert = AdminExpertReply;

export const expertName = (e: Pick<Expert, "first_name" | "last_name">) => `${e.first_name} ${e.last_name}`.trim();

/** The public profile page of the web app. */
export const publicProfilePath = (e: Pick<Expert, "slug">) => `/expert-profile/${encodeURIComponent(e.slug)}`;
