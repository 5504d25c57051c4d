import { sql, type Projection } from "../projection.ts";

/** Expert profiles: the public listing and detail, with publish state and the vetting decision. */
export const expertsProjection: Projection = {
  name: "experts",
  tables: ["experts"],
  project: ({ event, stored }) => {
    const v = stored.version;
    const at = stored.metadata.at;
    switch (event.type) {
      case "ExpertProfileSaved": {
        const { expertId, userId, slug, profile: p, published } = event.data;
        return [
          sql(
            `INSERT INTO experts (expert_id, user_id, slug, first_name, last_name, title, bio, tags, profile_image, published, updated_at, stream_version)
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)
             ON CONFLICT (expert_id) DO UPDATE SET user_id = EXCLUDED.user_id, slug = EXCLUDED.slug, first_name = EXCLUDED.first_name, last_name = EXCLUDED.last_name,
               title = EXCLUDED.title, bio = EXCLUDED.bio, tags = EXCLUDED.tags, profile_image = EXCLUDED.profile_image, published = EXCLUDED.published,
               updated_at = EXCLUDED.updated_at, stream_version = EXCLUDED.stream_version
             WHERE experts.stream_version < EXCLUDED.stream_version`,
            expertId, userId, slug, p.firstName, p.lastName, p.title, p.bio, p.tags, p.profileImage, published, at, v,
          ),
        ];
      }
      case "ExpertVerified":
      case "ExpertUnverified":
        return [
          sql(
            "UPDATE experts SET verified = $2, vetted_by = $3, updated_at = $4, stream_version = $5 WHERE expert_id = $1 AND stream_version < $5",
            event.data.expertId, event.type === "ExpertVerified", event.data.by, at, v,
          ),
        ];
      default:
        return [];
    }
  },
};
