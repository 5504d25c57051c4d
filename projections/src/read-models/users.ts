import { sql, type Projection } from "../projection.ts";

/** Users for the admin console: who signed up, as what. */
export const usersProjection: Projection = {
  name: "users",
  tables: ["users"],
  project: ({ event, stored }) => {
    const v = stored.version;
    switch (event.type) {
      case "UserRegistered": {
        const d = event.data;
        return [
          sql(
            `INSERT INTO users (user_id, email, role, first_name, last_name, registered_at, stream_version) VALUES ($1, $2, $3, $4, $5, $6, $7)
             ON CONFLICT (user_id) DO UPDATE SET email = EXCLUDED.email, role = EXCLUDED.role, first_name = EXCLUDED.first_name, last_name = EXCLUDED.last_name, stream_version = EXCLUDED.stream_version
             WHERE users.stream_version < EXCLUDED.stream_version`,
            d.userId, d.email, d.role, d.firstName, d.lastName, stored.metadata.at, v,
          ),
        ];
      }
      case "UserRenamed":
        return [sql("UPDATE users SET first_name = $2, last_name = $3, stream_version = $4 WHERE user_id = $1 AND stream_version < $4", event.data.userId, event.data.firstName, event.data.lastName, v)];
      default:
        return [];
    }
  },
};
