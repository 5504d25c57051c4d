import { entityProjection } from "../projection.ts";

type UserRow = {
  user_id: string;
  email: string;
  role: string;
  first_name: string | null;
  last_name: string | null;
  registered_at: string;
  stream_version: number;
};

/** Users for the admin console: who signed up, as what. */
export const usersProjection = entityProjection<UserRow>({
  name: "users",
  table: "users",
  key: ["user_id"],
  columns: ["user_id", "email", "role", "first_name", "last_name", "registered_at", "stream_version"],
  rowKey: ({ event }) => (event.type === "UserRegistered" || event.type === "UserRenamed" ? [event.data.userId] : null),
  evolve: (row, { event, stored }) => {
    switch (event.type) {
      case "UserRegistered": {
        const d = event.data;
        // Registering again keeps the first registration's time.
        return { user_id: d.userId, email: d.email, role: d.role, first_name: d.firstName, last_name: d.lastName, registered_at: row?.registered_at ?? stored.metadata.at, stream_version: stored.version };
      }
      case "UserRenamed":
        return row && { ...row, first_name: event.data.firstName, last_name: event.data.lastName, stream_version: stored.version };
      default:
        return row;
    }
  },
});
