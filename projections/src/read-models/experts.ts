import { entityProjection } from "../projection.ts";

type ExpertRow = {
  expert_id: string;
  user_id: string;
  slug: string;
  first_name: string;
  last_name: string;
  title: string;
  bio: string | null;
  tags: string[];
  profile_image: string | null;
  published: boolean;
  verified: boolean;
  vetted_by: string | null;
  updated_at: string;
  stream_version: number;
};

/** Expert profiles: the public listing and detail, with publish state and the vetting decision. */
export const expertsProjection = entityProjection<ExpertRow>({
  name: "experts",
  table: "experts",
  key: ["expert_id"],
  columns: ["expert_id", "user_id", "slug", "first_name", "last_name", "title", "bio", "tags", "profile_image", "published", "verified", "vetted_by", "updated_at", "stream_version"],
  rowKey: ({ event }) => (event.type === "ExpertProfileSaved" || event.type === "ExpertVerified" || event.type === "ExpertUnverified" ? [event.data.expertId] : null),
  evolve: (row, { event, stored }) => {
    const at = stored.metadata.at;
    switch (event.type) {
      case "ExpertProfileSaved": {
        const { expertId, userId, slug, profile: p, published } = event.data;
        const saved = { expert_id: expertId, user_id: userId, slug, first_name: p.firstName, last_name: p.lastName, title: p.title, bio: p.bio, tags: p.tags, profile_image: p.profileImage, published, updated_at: at, stream_version: stored.version };
        // Saving the profile keeps the vetting decision.
        return { verified: row?.verified ?? false, vetted_by: row?.vetted_by ?? null, ...saved };
      }
      case "ExpertVerified":
      case "ExpertUnverified":
        // Vetting an expert without a profile changes nothing.
        return row && { ...row, verified: event.type === "ExpertVerified", vetted_by: event.data.by, updated_at: at, stream_version: stored.version };
      default:
        return row;
    }
  },
});
