import type { AdminReviewReply } from "@booking/contracts";

/** A review of the `reviews` read model as GET /admin/reviews sends it (contracts' AdminReviewReply), keyed by its booking. */
export type Review = AdminReviewReply;

export const reviewLabel = (r: Pick<Review, "rating" | "creator_name" | "expert_name">) =>
  `${r.rating}★ by ${r.creator_name ?? "a creator"} for ${r.expert_name ?? "an expert"}`;
