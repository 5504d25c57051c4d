import { describe, expect, it } from "vitest";
import { apiConfig, parseConfig, projectorConfig, relayConfig, storeConfig } from "../src/main/config.ts";
import { startProcess } from "./processes.ts";

describe("process configuration", () => {
  it("names the missing or bad variable", () => {
    expect(parseConfig(storeConfig, {})).toEqual({ ok: false, error: { variable: "DATABASE_URL", problem: "is required" } });
    expect(parseConfig(storeConfig, { DATABASE_URL: "mysql://x" })).toMatchObject({ ok: false, error: { variable: "DATABASE_URL" } });
    expect(parseConfig(relayConfig, { DATABASE_URL: "postgres://localhost/x" })).toEqual({
      ok: false,
      error: { variable: "KAFKA_BROKERS", problem: "is required" },
    });
    expect(parseConfig(relayConfig, { DATABASE_URL: "postgres://localhost/x", KAFKA_BROKERS: "not a broker" })).toMatchObject({
      ok: false,
      error: { variable: "KAFKA_BROKERS" },
    });
    expect(parseConfig(projectorConfig, { DATABASE_URL: "postgres://localhost/x", ESDB_URL: "http://x" })).toMatchObject({
      ok: false,
      error: { variable: "ESDB_URL" },
    });
  });
  it("checks the API's mail settings and sending limits", () => {
    const base = { DATABASE_URL: "postgres://localhost/x", JWT_SECRET: "x".repeat(40) };
    expect(parseConfig(apiConfig, base)).toMatchObject({ ok: true, config: { AUTH_MAIL_RATE_LIMIT_MAX: 5 } });
    expect(parseConfig(apiConfig, { ...base, AUTH_MAIL_RATE_LIMIT_MAX: "0" })).toMatchObject({
      ok: false,
      error: { variable: "AUTH_MAIL_RATE_LIMIT_MAX" },
    });
    expect(parseConfig(apiConfig, { ...base, SMTP_URL: "http://mail.example.com" })).toMatchObject({
      ok: false,
      error: { variable: "SMTP_URL" },
    });
    expect(parseConfig(apiConfig, { ...base, SMTP_URL: "smtp://user:pass@mail.example.com:587" })).toMatchObject({ ok: true });
  });
  it("asks for DATA_KEY_SECRET in production only, and never of the relay, which opens nothing", () => {
    const base = { DATABASE_URL: "postgres://localhost/x", JWT_SECRET: "x".repeat(40) };
    const production = { ...base, NODE_ENV: "production" };
    for (const schema of [apiConfig, projectorConfig, storeConfig])
      expect(parseConfig(schema, production)).toMatchObject({
        ok: false,
        error: { variable: "DATA_KEY_SECRET", problem: expect.stringMatching(/^is required in production \(NODE_ENV=production\)/) },
      });
    expect(parseConfig(relayConfig, { ...production, KAFKA_BROKERS: "k:9092" })).toMatchObject({ ok: true });
    expect(parseConfig(apiConfig, { ...production, DATA_KEY_SECRET: "d".repeat(32) })).toMatchObject({ ok: true });
    expect(parseConfig(apiConfig, { ...production, DATA_KEY_SECRET: "short" })).toMatchObject({
      ok: false,
      error: { variable: "DATA_KEY_SECRET" },
    });
    expect(parseConfig(apiConfig, base)).toMatchObject({ ok: true });
  });
  it("fills defaults and splits broker lists", () => {
    const r = parseConfig(projectorConfig, { DATABASE_URL: "postgres://localhost/x", KAFKA_BROKERS: "a:9092, b:9093" });
    expect(r).toMatchObject({
      ok: true,
      config: { KAFKA_BROKERS: ["a:9092", "b:9093"], KAFKA_TOPIC: "booking-events", PROJECTOR_GROUP: "projector" },
    });
  });
  it.each(["relay", "projector", "replay"])("the %s process exits at start with one clear line", async (name) => {
    const p = startProcess(name, {});
    expect(await p.exited).toBe(78);
    expect(p.output().trim()).toBe(`${name}: configuration error: DATABASE_URL is required`);
  });
});
