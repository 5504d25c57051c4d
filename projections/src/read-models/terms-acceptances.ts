import { factsProjection } from "../projection.ts";

type TermsAcceptanceRow = { user_id: string; version_id: string; accepted_at: string; stream_version: number };

/** Every acceptance of a terms version, for the audit. */
export const termsAcceptancesProjection = factsProjection<TermsAcceptanceRow>({
  name: "terms_acceptances",
  table: "terms_acceptances",
  key: ["user_id", "version_id"],
  columns: ["user_id", "version_id", "accepted_at", "stream_version"],
  rows: ({ event, stored }) =>
    event.type === "TermsAccepted" ? [{ user_id: event.data.userId, version_id: event.data.versionId, accepted_at: event.data.acceptedAt, stream_version: stored.version }] : [],
});
