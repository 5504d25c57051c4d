import { afterAll, beforeAll, expect, it } from "vitest";
import { PostgresKeyRing, masterKeyFromSecret, sealStoredEvents, storedLogOf, type PostgresEventStore } from "@booking/event-store";
import { allProjections, readModelDigest, rebuildProjections } from "@booking/projections";
import { TEST_DATA_KEY_SECRET } from "@booking/testkit";
import { bookingPartyBook, sealedEventStore } from "../src/main/event-store.ts";
import { seedDemoData } from "../src/main/seed.ts";
import { projectorCaughtUp, startProcess, waitFor } from "./processes.ts";
import { startTestApi, type TestApi } from "./harness.ts";

// The one-time migration of a log written in plain text (issue 33.1): the demo seed written by an API that did not
// seal, then `npm run seal-stored-events` (the process itself) rewrites every stored event's personal fields in place.
// Afterwards no seeded person's name, address or words are in the events table, byte for byte; a second run rewrites
// nothing; and a replay from the sealed log gives read models identical to the live ones built from plain text.

let api: TestApi;
let keys: PostgresKeyRing;
const V1 = "/api/v1";
const ANSWER = "Our channel plan: three shorts a week, then a podcast";
const MESSAGE = "Could we look at the thumbnails first?";

const eventsText = async () => {
  const { rows } = await stored().pool.query<{ t: string }>("SELECT data::text || metadata::text AS t FROM events");
  return rows.map((r) => r.t).join("\n");
};
const stored = () => storedLogOf(api.ctx.store) as PostgresEventStore;

beforeAll(async () => {
  api = await startTestApi({ sealPersonalData: false });
  expect(await seedDemoData(api.app, api.ctx, { history: false })).toBe(true);
  // A booking's own words besides: prep answers (the booking's creator's, found through its request) and a message.
  const [expert, creator] = [await api.user("expert", { firstName: "Ottoline" }), await api.user("creator", { firstName: "Peregrine" })];
  await api.call("PATCH", `${V1}/experts/me`, {
    user: expert,
    body: { first_name: "Ottoline", last_name: "Quarles", title: "Coach", published: true },
  });
  await api.approve(expert);
  const slots = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"].map((weekday) => ({
    weekday,
    start_local: "00:00",
    end_local: "23:30",
  }));
  await api.call("POST", `${V1}/experts/${expert.id}/schedule`, { user: expert, body: { timezone: "UTC", slots } });
  const session = { title: "One question", price: 60, length_minutes: 30, prep_question_1: "What is your goal?", status: "published" };
  const sessionId = (await api.call("POST", `${V1}/sessions`, { user: expert, body: session })).json().session.id as string;
  const times = (await api.call("GET", `${V1}/sessions/${sessionId}/availability`)).json().times as string[];
  const bookingId = (
    await api.call("POST", `${V1}/bookings`, { user: creator, body: { session_id: sessionId, scheduled_time: times[2] } })
  ).json().booking.id as string;
  expect(
    (await api.call("PATCH", `${V1}/bookings/${bookingId}/prep`, { user: creator, body: { prep_response_1: ANSWER } })).statusCode,
  ).toBe(200);
  expect((await api.call("POST", `${V1}/bookings/${bookingId}/messages`, { user: creator, body: { text: MESSAGE } })).statusCode).toBe(200);
  await waitFor("the read models", () => projectorCaughtUp(api.ctx.db, api.ctx.store), 20_000);
  await api.stopProjector();
  keys = await PostgresKeyRing.connect(api.databaseUrl, masterKeyFromSecret(TEST_DATA_KEY_SECRET));
}, 120_000);
afterAll(async () => {
  await keys?.close();
  await api?.close();
});

it("seals every seeded person's data in place, once, and a replay from the sealed log gives the same read models", async () => {
  const { rows: people } = await api.ctx.db.query<{ email: string; first_name: string; last_name: string }>(
    "SELECT email, first_name, last_name FROM users",
  );
  const { rows: experts } = await api.ctx.db.query<{ bio: string | null; slug: string }>("SELECT bio, slug FROM experts");
  // Each as a whole JSON string value, as the table would hold it in clear.
  const personal = [...people.flatMap((p) => [p.email, p.first_name, p.last_name]), ...experts.flatMap((e) => [e.slug, e.bio ?? ""])];
  const words = [ANSWER, MESSAGE, ...personal.filter((t) => t.length > 3)].map((t) => JSON.stringify(t));
  expect(people.length).toBeGreaterThanOrEqual(6);
  const before = await eventsText();
  // The premise: written in plain text.
  for (const text of words) expect(before, text).toContain(text);
  const live = await readModelDigest(api.ctx.db);

  const command = startProcess("seal-stored-events", { DATABASE_URL: api.databaseUrl });
  expect(await command.exited, command.output()).toBe(0);
  const summary = JSON.parse(command.output().trim().split("\n").at(-1)!) as { events: number; rewritten: number; leftPlainCount: number };
  expect(summary.rewritten).toBeGreaterThan(20);
  expect(summary.leftPlainCount).toBe(0);

  const after = await eventsText();
  for (const text of words) expect(after, text).not.toContain(text);
  // Run again: everything sealed stays as it is.
  const parties = bookingPartyBook(stored(), api.ctx.db);
  const again = await sealStoredEvents({ pool: stored().pool, keys, parties });
  expect(again).toMatchObject({ events: summary.events, rewritten: 0, leftPlainCount: 0 });
  expect(await eventsText()).toBe(after);

  // The read models rebuilt from the sealed log, opened, are the live ones the plain log made.
  await rebuildProjections(sealedEventStore(stored(), keys, api.ctx.db), api.ctx.db, allProjections);
  expect(await readModelDigest(api.ctx.db)).toEqual(live);
});
