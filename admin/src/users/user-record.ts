import { UserRole } from "@booking/contracts";

/** A user of the `users` read model with terms status and booking counts (GET /admin/users). */
export type User = {
  id: string;
  user_id: string;
  email: string;
  role: UserRole;
  first_name: string | null;
  last_name: string | null;
  registered_at: string;
  expert_id: string | null;
  current_terms_version: string;
  accepted_current_terms: boolean;
  current_terms_accepted_at: string | null;
  latest_terms_version: string | null;
  bookings_as_creator: number;
  bookings_as_expert: number;
};

export const roleChoices = UserRole.options.map((id) => ({ id, name: id[0]!.toUpperCase() + id.slice(1) }));
