import type pg from "pg";

export type ExpertRow = {
  expert_id: string; user_id: string; slug: string; first_name: string; last_name: string; title: string; bio: string | null;
  tags: string[]; profile_image: string | null; published: boolean; verified: boolean; starting_price_cents: string | null;
};

const SELECT = `SELECT e.expert_id, e.user_id, e.slug, e.first_name, e.last_name, e.title, e.bio, e.tags, e.profile_image, e.published, e.verified,
  (SELECT min(s.price_cents) FROM sessions s WHERE s.expert_id = e.expert_id AND s.status = 'published' AND NOT s.deleted) AS starting_price_cents
  FROM experts e`;

/** The experts listing's card (spec section 3: id, user_id, slug, name, role, startingprice, rating, image, verified). */
export function expertListItem(r: ExpertRow) {
  return {
    id: r.expert_id,
    user_id: r.user_id,
    slug: r.slug,
    name: `${r.first_name} ${r.last_name}`,
    role: r.title,
    startingprice: r.starting_price_cents === null ? null : Math.round(Number(r.starting_price_cents) / 100),
    rating: null as number | null, // no reviews are collected yet
    image: r.profile_image,
    verified: r.verified,
  };
}

export function expertProfile(r: ExpertRow) {
  return {
    id: r.expert_id,
    user_id: r.user_id,
    slug: r.slug,
    first_name: r.first_name,
    last_name: r.last_name,
    title: r.title,
    bio: r.bio,
    tags: r.tags,
    profile_image: r.profile_image,
    verified: r.verified,
    published: r.published,
  };
}

/** Published experts, optionally matching a search on name, title or tags (the text is a parameter, its wildcards escaped). */
export async function listExperts(db: pg.Pool, search = ""): Promise<ExpertRow[]> {
  const term = search.trim();
  if (!term) {
    return (await db.query<ExpertRow>(`${SELECT} WHERE e.published ORDER BY e.verified DESC, e.last_name, e.first_name, e.expert_id LIMIT 500`)).rows;
  }
  const pattern = `%${term.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  const { rows } = await db.query<ExpertRow>(
    `${SELECT} WHERE e.published AND (
       (e.first_name || ' ' || e.last_name) ILIKE $1 OR e.title ILIKE $1 OR EXISTS (SELECT 1 FROM unnest(e.tags) t WHERE t ILIKE $1)
     ) ORDER BY e.verified DESC, e.last_name, e.first_name, e.expert_id LIMIT 500`,
    [pattern],
  );
  return rows;
}

export async function findExpertBySlug(db: pg.Pool, slug: string): Promise<ExpertRow | null> {
  return (await db.query<ExpertRow>(`${SELECT} WHERE e.slug = $1`, [slug])).rows[0] ?? null;
}

export async function findExpert(db: pg.Pool, expertId: string): Promise<ExpertRow | null> {
  return (await db.query<ExpertRow>(`${SELECT} WHERE e.expert_id = $1`, [expertId])).rows[0] ?? null;
}
