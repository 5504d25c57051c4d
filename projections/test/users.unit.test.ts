import { describe, expect, it } from "vitest";
import { UserRecord } from "@booking/contracts";
import { usersProjection } from "../src/index.ts";
import { givenAt, readModelSpec } from "./read-model-spec.ts";

// The users read model's rule without a database: given these events, then these rows.

const spec = readModelSpec(usersProjection);
const registered = (email: string, role: "creator" | "expert" = "creator") =>
  ({ stream: "user-u1", event: { type: "UserRegistered", data: { userId: "u1", email, role, firstName: "Maya", lastName: null } } }) as const;

describe("users read model: given events, then rows", () => {
  it("a registration is a row of the contracts' shape, registered at the event's time", () => {
    const given = spec.given(registered("maya@example.com"));
    given.then([{ user_id: "u1", email: "maya@example.com", role: "creator", first_name: "Maya", last_name: null, registered_at: givenAt(0), stream_version: 1 }]);
    expect(UserRecord.safeParse(given.rows()[0]).success).toBe(true);
  });

  it("registering again takes the new details but keeps the first registration's time", () => {
    spec.given(registered("maya@example.com"), registered("maya@new.example", "expert")).then([
      { email: "maya@new.example", role: "expert", registered_at: givenAt(0), stream_version: 2 },
    ]);
  });

  it("a rename changes the names and nothing else", () => {
    spec.given(registered("maya@example.com"), { stream: "user-u1", event: { type: "UserRenamed", data: { userId: "u1", firstName: "Maya", lastName: "Lind" } } }).then([
      { email: "maya@example.com", first_name: "Maya", last_name: "Lind", registered_at: givenAt(0), stream_version: 2 },
    ]);
  });

  it("a rename of a user never registered makes no row", () => {
    spec.given({ stream: "user-u2", event: { type: "UserRenamed", data: { userId: "u2", firstName: "Nobody", lastName: "Known" } } }).then([]);
  });
});
