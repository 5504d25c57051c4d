import { describe, expect, it } from "vitest";
import { reasonToStartNoBroker } from "../testkit/src/kafka-setup.ts";

// `npm test` on a fresh machine runs the Kafka suites (issue 28.5): the run starts a broker itself
// unless one is given, and only when it can reach a Kafka suite.
const vitest = (...args: string[]) => ["/usr/bin/node", "/repo/node_modules/vitest/vitest.mjs", "run", ...args];
const java = () => true;

describe("the test run's own Kafka broker", () => {
  it("is started for a whole run, the integration layer, or a Kafka suite named by file", () => {
    expect(reasonToStartNoBroker({}, vitest(), java)).toBeNull();
    expect(reasonToStartNoBroker({}, vitest(".int.test."), java)).toBeNull();
    expect(reasonToStartNoBroker({}, vitest("--project", "api", "kafka-pipeline"), java)).toBeNull();
    expect(reasonToStartNoBroker({}, vitest("--project=event-store"), java)).toBeNull();
  });

  it("is not started when the caller gives one, or cannot be", () => {
    expect(reasonToStartNoBroker({ KAFKA_BROKERS: "127.0.0.1:9092" }, vitest(), java)).toBe("KAFKA_BROKERS is set");
    expect(reasonToStartNoBroker({ KAFKA_AUTOSTART: "0" }, vitest(), java)).toBe("KAFKA_AUTOSTART=0");
    expect(reasonToStartNoBroker({}, vitest(), () => false)).toMatch(/Java is not installed/);
  });

  it("is not started for runs that reach no Kafka suite", () => {
    expect(reasonToStartNoBroker({}, vitest(".unit.test."), java)).toMatch(/no Kafka suite matches/);
    expect(reasonToStartNoBroker({}, vitest("--project", "api", "refunds"), java)).toMatch(/no Kafka suite matches/);
    expect(reasonToStartNoBroker({}, vitest("--project", "web"), java)).toMatch(/no project of this run/);
  });
});
