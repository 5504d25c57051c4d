import { describe, expect, it } from "vitest";
import { TermsAcceptanceRecord } from "@booking/contracts";
import { termsAcceptancesProjection } from "../src/index.ts";
import { readModelSpec } from "./read-model-spec.ts";

// The terms_acceptances read model's rule without a database: given these events, then these rows.

const spec = readModelSpec(termsAcceptancesProjection);
const accepted = (versionId: string, acceptedAt: string) =>
  ({ stream: "terms-u1", event: { type: "TermsAccepted", data: { userId: "u1", versionId, acceptedAt } } }) as const;

describe("terms_acceptances read model: given events, then rows", () => {
  it("an acceptance is a row of the contracts' shape, at the time the user accepted", () => {
    const given = spec.given(accepted("2026-01", "2030-01-06T08:00:00.000Z"));
    given.then([{ user_id: "u1", version_id: "2026-01", accepted_at: "2030-01-06T08:00:00.000Z", stream_version: 1 }]);
    expect(TermsAcceptanceRecord.safeParse(given.rows()[0]).success).toBe(true);
  });

  it("an acceptance of the same version is recorded once: the first stays", () => {
    spec
      .given(accepted("2026-01", "2030-01-06T08:00:00.000Z"), accepted("2026-01", "2030-02-01T08:00:00.000Z"))
      .then([{ version_id: "2026-01", accepted_at: "2030-01-06T08:00:00.000Z", stream_version: 1 }]);
  });

  it("each version the user accepted is its own row", () => {
    spec.given(accepted("2026-01", "2030-01-06T08:00:00.000Z"), accepted("2026-06", "2030-07-01T08:00:00.000Z")).then([
      { version_id: "2026-01", stream_version: 1 },
      { version_id: "2026-06", accepted_at: "2030-07-01T08:00:00.000Z", stream_version: 2 },
    ]);
  });
});
