import { describe, expect, it } from "vitest";
import { UserRecord } from "@booking/contracts";
import { usersProjection } from "../src/index.ts";
import { givenAt, readModelSpec } from "./read-model-spec.ts";

// The users read model's rule without a database: given these events, then these rows.

const spec = readModelSpec(usersProjection);
const registered = (email: string, role: "creator" | "expert" = "creator", timezone?: string) =>
  ({
    stream: "user-u1",
    event: {
      type: "UserRegistered",
      data: { userId: "u1", email, role, firstName: "Maya", lastName: null, ...(timezone && { timezone }) },
    },
  }) as const;
const verified = (email = "maya@example.com") =>
  ({ stream: "user-u1", event: { type: "EmailVerified", data: { userId: "u1", email } } }) as const;
const preferences = (timezone: string, reminderMails: boolean) =>
  ({ stream: "user-u1", event: { type: "PreferencesSet", data: { userId: "u1", timezone, reminderMails } } }) as const;

describe("users read model: given events, then rows", () => {
  it("a registration is a row of the contracts' shape, registered at the event's time", () => {
    const given = spec.given(registered("maya@example.com"));
    given.then([
      {
        user_id: "u1",
        email: "maya@example.com",
        role: "creator",
        first_name: "Maya",
        last_name: null,
        registered_at: givenAt(0),
        email_verified_at: null,
        timezone: null,
        reminder_mails: true,
        stream_version: 1,
      },
    ]);
    expect(UserRecord.safeParse(given.rows()[0]).success).toBe(true);
  });

  it("registering again takes the new details but keeps the first registration's time", () => {
    spec
      .given(registered("maya@example.com"), registered("maya@new.example", "expert"))
      .then([{ email: "maya@new.example", role: "expert", registered_at: givenAt(0), stream_version: 2 }]);
  });

  it("a rename changes the names and nothing else", () => {
    spec
      .given(registered("maya@example.com"), {
        stream: "user-u1",
        event: { type: "UserRenamed", data: { userId: "u1", firstName: "Maya", lastName: "Lind" } },
      })
      .then([{ email: "maya@example.com", first_name: "Maya", last_name: "Lind", registered_at: givenAt(0), stream_version: 2 }]);
  });

  it("a rename of a user never registered makes no row", () => {
    spec
      .given({ stream: "user-u2", event: { type: "UserRenamed", data: { userId: "u2", firstName: "Nobody", lastName: "Known" } } })
      .then([]);
  });

  it("a registration with the browser's zone keeps it; reminders are on until turned off", () => {
    spec
      .given(registered("maya@example.com", "creator", "Europe/Lisbon"))
      .then([{ timezone: "Europe/Lisbon", reminder_mails: true, email_verified_at: null }]);
  });

  it("a verification records when the address was first proven", () => {
    spec.given(registered("maya@example.com"), verified(), verified()).then([{ email_verified_at: givenAt(1), stream_version: 3 }]);
  });

  it("preferences replace the zone and the reminders choice; registering again keeps them and the proof", () => {
    spec
      .given(registered("maya@example.com", "creator", "Europe/Lisbon"), verified(), preferences("Asia/Tokyo", false))
      .then([{ timezone: "Asia/Tokyo", reminder_mails: false, email_verified_at: givenAt(1), stream_version: 3 }]);
    spec
      .given(registered("maya@example.com"), verified(), preferences("Asia/Tokyo", false), registered("maya@example.com"))
      .then([{ timezone: "Asia/Tokyo", reminder_mails: false, email_verified_at: givenAt(1), stream_version: 4 }]);
  });

  it("a verification or preferences of a user never registered make no row", () => {
    spec.given(verified(), preferences("UTC", false)).then([]);
  });
});
