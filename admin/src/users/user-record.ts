import { UserRole, type AdminUserReply } from "@booking/contracts";

/** A user of the `users` read model with terms status and booking counts (GET /admin/users). */
export type User = AdminUserReply;

export const roleChoices = UserRole.options.map((id) => ({ id, name: id[0]!.toUpperCase() + id.slice(1) }));
