import { describe, expect, it } from "vitest";
import { SessionRecord, type SessionDefinition } from "@booking/contracts";
import { sessionsProjection } from "../src/index.ts";
import { givenAt, readModelSpec, type GivenEvent } from "./read-model-spec.ts";

// The sessions read model's rule without a database: given these events, then these rows.

const spec = readModelSpec(sessionsProjection);
const definition: SessionDefinition = {
  title: "Pricing review",
  description: "Your prices, reviewed",
  priceCents: 15_000,
  lengthMinutes: 60,
  prepQuestions: ["Goal?"],
  sessionDetails: "",
  idealFor: ["makers"],
};
const on = (event: GivenEvent["event"]): GivenEvent => ({ stream: "session-s1", event });
const created = on({ type: "SessionCreated", data: { sessionId: "s1", expertId: "e1", status: "draft", definition } });
const published = on({ type: "SessionPublished", data: { sessionId: "s1" } });

describe("sessions read model: given events, then rows", () => {
  it("a created session is a row of the contracts' shape, in the status it was created with", () => {
    const given = spec.given(created);
    given.then([
      {
        session_id: "s1",
        expert_id: "e1",
        title: "Pricing review",
        price_cents: 15_000,
        length_minutes: 60,
        prep_questions: ["Goal?"],
        ideal_for: ["makers"],
        status: "draft",
        deleted: false,
        created_at: givenAt(0),
        updated_at: givenAt(0),
        stream_version: 1,
      },
    ]);
    expect(SessionRecord.safeParse(given.rows()[0]).success).toBe(true);
  });

  it("a second creation for the id changes nothing", () => {
    spec
      .given(
        created,
        on({
          type: "SessionCreated",
          data: { sessionId: "s1", expertId: "e2", status: "published", definition: { ...definition, title: "Other" } },
        }),
      )
      .then([{ expert_id: "e1", title: "Pricing review", status: "draft", stream_version: 1 }]);
  });

  it("published, then unpublished", () => {
    spec.given(created, published).then([{ status: "published", updated_at: givenAt(1), stream_version: 2 }]);
    spec
      .given(created, published, on({ type: "SessionUnpublished", data: { sessionId: "s1" } }))
      .then([{ status: "draft", stream_version: 3 }]);
  });

  it("an update takes the new definition and keeps the status and the creation time", () => {
    spec
      .given(
        created,
        published,
        on({
          type: "SessionUpdated",
          data: {
            sessionId: "s1",
            definition: { ...definition, title: "Price rise", priceCents: 18_000, prepQuestions: ["Goal?", "Now?"] },
          },
        }),
      )
      .then([
        {
          title: "Price rise",
          price_cents: 18_000,
          prep_questions: ["Goal?", "Now?"],
          status: "published",
          created_at: givenAt(0),
          updated_at: givenAt(2),
          stream_version: 3,
        },
      ]);
  });

  it("a deleted session stays as a row marked deleted, its definition as it was", () => {
    spec
      .given(created, published, on({ type: "SessionDeleted", data: { sessionId: "s1" } }))
      .then([{ deleted: true, status: "published", title: "Pricing review", updated_at: givenAt(2), stream_version: 3 }]);
  });

  it("changes to a session never created make no row", () => {
    spec.given(published, on({ type: "SessionDeleted", data: { sessionId: "s1" } })).then([]);
  });
});
