import { randomBytes, randomUUID } from "node:crypto";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Kafka, logLevel } from "kafkajs";
import { afterAll, describe, expect, it } from "vitest";
import { PostgresEventStore, PostgresKeyRing, masterKeyFromSecret } from "@booking/event-store";
import { allProjections, migrateReadModels, readModelDigest, rebuildProjections } from "@booking/projections";
import { TEST_DATA_KEY_SECRET, announceSkip, testDatabases } from "@booking/testkit";
import { sealedEventStore } from "../../api/src/main/event-store.ts";
import { sleep, waitFor } from "../../api/test/processes.ts";
import { startTopology, type Topology } from "../../scripts/topology/topology.ts";
import { fetchCall, seedBookingParties, startTopologyLoad } from "../lib/topology-load.ts";
import { elapsed, printFigure } from "./figure.ts";
import { testPostgresUrl } from "@booking/testkit/worker-postgres";

// The production topology on this machine (scripts/topology): relay, two projectors in one Kafka
// consumer group, two APIs behind the round-robin proxy. Creators book, pay, confirm and cancel
// through the proxy while one projector and then one API are killed with SIGKILL: the surviving
// projector takes the dead one's partitions, the proxy stops sending to the dead API once its
// readiness fails and sends to it again once it is back, and the read models equal a clean replay.

const databases = testDatabases(testPostgresUrl(), { poolSize: 4, prepare: async (pool) => void (await migrateReadModels(pool)) });
afterAll(() => databases.dropAll());
const brokers =
  process.env.KAFKA_BROKERS?.split(",")
    .map((b) => b.trim())
    .filter(Boolean) ?? [];

const BOOKERS = 4;
const LISTERS = 1;

describe("the topology on one machine: two projectors, two APIs, a proxy", () => {
  if (!brokers.length) {
    announceSkip(
      "reliability: the topology on one machine",
      "KAFKA_BROKERS is not set (`bash scripts/kafka/broker.sh start` runs a broker)",
    );
    it.skip("skipped: KAFKA_BROKERS is not set", () => undefined);
    return;
  }
  it("a projector and an API killed mid-load: the survivor takes over, no booking is lost, the read models equal a clean replay", async () => {
    const t0 = performance.now();
    const { db, pool } = await databases.open("rel_topology");
    const store = await PostgresEventStore.connect(db.url);
    const mediaDir = await mkdtemp(join(tmpdir(), "rel-topology-media-"));
    const jwtSecret = randomBytes(32).toString("hex");
    const run = `rel-topology-${randomUUID()}`;
    const kafka = new Kafka({ clientId: "topology-test", brokers, logLevel: logLevel.NOTHING }).admin();
    await kafka.connect();
    let topology: Topology | null = null;
    try {
      const parties = await seedBookingParties(store, jwtSecret, { experts: 20, creators: 50 });
      topology = await startTopology({
        databaseUrl: db.url,
        brokers,
        topic: run,
        group: `${run}-projectors`,
        jwtSecret,
        mediaDir,
        apis: 2,
        projectors: 2,
      });
      const t = topology;
      const p1 = t.projectors[0]!;
      const [a1, a2] = t.apis as [(typeof t.apis)[0], (typeof t.apis)[0]];
      const started = elapsed(t0);
      const group = async () => (await kafka.describeGroups([`${run}-projectors`])).groups[0]!;
      await waitFor(
        "both projectors in the consumer group",
        async () => {
          const g = await group();
          return g.state === "Stable" && g.members.length === 2;
        },
        120_000,
      );
      // The last seeded session, through relay, Kafka and a projector, before any booking is tried.
      const last = parties.experts[parties.experts.length - 1]!;
      await waitFor(
        "the seeded sessions in the read models",
        async () => (await fetch(`${t.url}/api/v1/sessions/${last.sessionId}`)).status === 200,
        120_000,
      );

      // Every answer outside 2xx, by kind: the proxy's 502 for a request cut by the API kill, or
      // anything else (e.g. a read-your-writes miss: 404 for the booking just answered 201).
      const proxied = fetchCall(t.url);
      const refusals: string[] = [];
      const load = startTopologyLoad(
        async (method, path, o) => {
          const r = await proxied(method, path, o);
          if (r.status < 200 || r.status >= 300)
            refusals.push(`${method} ${path.replace(/[0-9a-f-]{36}/g, "{id}")}: ${r.status} ${r.body.slice(0, 120)}`);
          return r;
        },
        parties,
        { bookers: BOOKERS, listers: LISTERS },
      );
      await sleep(4000);

      // A projector dies without leaving the group: the broker gives its partitions to the survivor
      // once its session times out (10 s, kafka-consumer.ts).
      const beforeProjectorKill = load.report().bookings;
      const projectorKilled = performance.now();
      await p1.kill();
      await waitFor(
        "the surviving projector to hold every partition",
        async () => {
          const g = await group();
          return g.state === "Stable" && g.members.length === 1;
        },
        60_000,
      );
      const takeover = elapsed(projectorKilled);
      await sleep(2000);

      // An API dies mid-request: requests in flight to it are cut (502), the rest go to the survivor.
      const beforeApiKill = load.report();
      const apiKilled = performance.now();
      await a1.kill();
      await waitFor("the proxy to see api-1 not ready", async () => !t.proxy.readiness()["api-1"], 10_000);
      const redAfter = elapsed(apiKilled);
      const deadReadiness = await fetch(`http://127.0.0.1:${a1.port}/api/v1/readyz`).then(
        (r) => r.status,
        () => "refused",
      );
      const servedBySurvivor = t.proxy.answered()["api-2"]!;
      await sleep(3000);
      const whileDown = load.report();
      const survivorServed = t.proxy.answered()["api-2"]! - servedBySurvivor;
      const redWhileDown = t.proxy.readiness()["api-1"] === false;
      a1.restart();
      const apiRestarted = performance.now();
      await waitFor("the proxy to see api-1 ready again", async () => t.proxy.readiness()["api-1"] === true, 120_000);
      const greenAfter = elapsed(apiRestarted);
      const servedByRestarted = t.proxy.answered()["api-1"]!;
      await sleep(3000);
      const restartedServed = t.proxy.answered()["api-1"]! - servedByRestarted;
      const report = await load.stop();

      // Nothing writes once the APIs have stopped; the relay and the surviving projector carry the rest.
      const apiExits = await Promise.all([a1.stop(), a2.stop()]);
      const clean = await databases.open("rel_topology_clean");
      // The replay reads the log as the processes do: personal fields opened with the data keys (issue 33.1).
      const keys = await PostgresKeyRing.connect(pool, masterKeyFromSecret(TEST_DATA_KEY_SECRET));
      await rebuildProjections(sealedEventStore(store, keys, null), clean.pool, allProjections);
      await keys.close();
      const expected = await readModelDigest(clean.pool);
      const converging = performance.now();
      await waitFor(
        "the read models to equal a clean replay",
        async () => JSON.stringify(await readModelDigest(pool)) === JSON.stringify(expected),
        120_000,
      ).catch(() => undefined);
      const converged = elapsed(converging);
      const live = await readModelDigest(pool);
      const posted = report.routes["POST /bookings"]!;
      const bookingRows = Number((await pool.query<{ n: string }>("SELECT count(*) AS n FROM bookings")).rows[0]!.n);
      const cut = refusals.filter((r) => / 502 .*API_LOST/.test(r));
      const readYourWritesMisses = refusals.filter(
        (r) => r.startsWith("POST /api/v1/stripe/test-intent: 404") && r.includes("booking_not_found"),
      );
      const otherRefusals = refusals.filter((r) => !cut.includes(r) && !readYourWritesMisses.includes(r));
      const exits = await t.stop();
      topology = null;

      printFigure("the topology on one machine", {
        "processes started (relay, 2 projectors, 2 APIs, proxy)": started,
        "bookings driven through the proxy (booked, paid, confirmed or cancelled)": report.bookings,
        "POST /bookings answered 201": posted.requests - posted.failed,
        "bookings in the read model": bookingRows,
        "projector-1 SIGKILLed after bookings": beforeProjectorKill,
        "projector-2 alone in the group after": takeover,
        "api-1 SIGKILLed after bookings": beforeApiKill.bookings,
        "proxy saw api-1 not ready after": redAfter,
        "api-1's /readyz while dead": deadReadiness,
        "api-1 still not ready in the proxy 3 s later": redWhileDown,
        "requests api-2 answered while api-1 was down (3 s)": survivorServed,
        "bookings completed while api-1 was down": whileDown.bookings - beforeApiKill.bookings,
        "api-1 restarted, ready in the proxy after": greenAfter,
        "requests api-1 answered in the 3 s after": restartedServed,
        "requests cut in flight by the API kill (502)": cut.length,
        "read-your-writes misses (404 for the booking just answered 201)": readYourWritesMisses.length,
        "other refusals": otherRefusals.length ? otherRefusals : "none",
        "read models equal a clean replay": JSON.stringify(live) === JSON.stringify(expected),
        "converged after the APIs stopped": converged,
        "exit codes on SIGTERM": { "api-1": apiExits[0], "api-2": apiExits[1], ...exits },
        time: elapsed(t0),
      });
      expect(report.bookings).toBeGreaterThan(0);
      expect(deadReadiness).toBe("refused");
      expect(redWhileDown).toBe(true);
      expect(survivorServed).toBeGreaterThan(0);
      expect(whileDown.bookings).toBeGreaterThan(beforeApiKill.bookings);
      expect(restartedServed).toBeGreaterThan(0);
      // Only the requests in flight to api-1 when it died may fail, and only as the proxy's 502.
      expect(cut.length).toBeLessThanOrEqual(BOOKERS + LISTERS);
      // Read-your-writes through Kafka: a 201 booking is there for the next request, also while a
      // dead projector's partitions wait for the rebalance (read-your-writes.ts waits on the written
      // stream's version, since a checkpoint is only the furthest position on any one partition).
      expect(readYourWritesMisses).toEqual([]);
      expect(otherRefusals).toEqual([]);
      // Every booking the API accepted is there; one cut in flight may have been made too.
      expect(bookingRows).toBeGreaterThanOrEqual(posted.requests - posted.failed);
      expect(bookingRows).toBeLessThanOrEqual(posted.requests);
      expect(live).toEqual(expected);
      expect(apiExits).toEqual([0, 0]);
      expect({ ...exits, "projector-1": "killed" }).toEqual({
        "api-1": 0,
        "api-2": 0,
        relay: 0,
        "projector-1": "killed",
        "projector-2": 0,
      });
    } finally {
      await topology?.stop();
      await kafka.disconnect();
      await store.close();
      await rm(mediaDir, { recursive: true, force: true });
    }
  });
});
