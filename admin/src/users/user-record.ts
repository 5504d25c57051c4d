import { UserRole, type AdminUserReply } from "@booking/contracts";

/** A user of the `users` read model with terms status and booking counts (GET /admin/users). */
export type User = AdminUserReply;

/**
 * Issue 33.2: an erased account is shown as erased and when, never as who it was (its row names nobody anyway: its
 * address is the erased marker and its name "Deleted user").
 */
export const erasedLabel = (user: Pick<User, "erased_at">, moment: (iso: string) => string): string | null =>
  user.erased_at ? `Account erased ${moment(user.erased_at)}` : null;

export const roleChoices = UserRole.options.map((id) => ({ id, name: id[0]!.toUpperCase() + id.slice(1) }));
