import { useParams } from "react-router-dom";
import { useAuth } from "./auth.tsx";

/**
 * Whose dashboard this is: the signed-in user's own (`who` "me"), or, for an admin who opened a
 * user's dashboard to help them, that user's (`who` their id), never the admin's own empty data.
 */
export function useDashboardSubject(): { who: string; byAdmin: boolean } {
  const { id } = useParams();
  const { user } = useAuth();
  const byAdmin = user?.role === "admin" && !!id && id !== user.id;
  return { who: byAdmin ? id! : "me", byAdmin };
}
