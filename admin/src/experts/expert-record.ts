/** An expert of the `experts` read model (GET /admin/experts). */
export type Expert = {
  id: string;
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
  /** The admin who made the latest vetting decision. */
  vetted_by: string | null;
  updated_at: string;
  stream_version: number;
};

export const expertName = (e: Pick<Expert, "first_name" | "last_name">) => `${e.first_name} ${e.last_name}`.trim();

/** The public profile page of the web app. */
export const publicProfilePath = (e: Pick<Expert, "slug">) => `/expert-profile/${encodeURIComponent(e.slug)}`;
