import { sql, type Projection } from "../projection.ts";

/** Every acceptance of a terms version, for the audit. */
export const termsAcceptancesProjection: Projection = {
  name: "terms_acceptances",
  tables: ["terms_acceptances"],
  project: ({ event, stored }) =>
    event.type === "TermsAccepted"
      ? [
          sql(
            "INSERT INTO terms_acceptances (user_id, version_id, accepted_at, stream_version) VALUES ($1, $2, $3, $4) ON CONFLICT DO NOTHING",
            event.data.userId, event.data.versionId, event.data.acceptedAt, stored.version,
          ),
        ]
      : [],
};
