import { existsSync } from "node:fs";

export type ServiceAvailability = { available: true; url: string; stop: () => Promise<void> } | { available: false; reason: string };

/** Whether a Docker engine answers here, so testcontainers can start a service. */
export async function dockerEngine(): Promise<{ ok: boolean; reason: string }> {
  if (!process.env.DOCKER_HOST && !existsSync("/var/run/docker.sock")) {
    return { ok: false, reason: "no Docker engine (no DOCKER_HOST and no /var/run/docker.sock)" };
  }
  try {
    const { getContainerRuntimeClient } = await import("testcontainers");
    await getContainerRuntimeClient();
    return { ok: true, reason: "" };
  } catch (e) {
    return { ok: false, reason: `Docker engine did not answer: ${(e as Error).message.split("\n")[0]}` };
  }
}

/** EventStoreDB from `ESDB_URL`, else a testcontainers container where Docker runs. */
export async function eventStoreDB(): Promise<ServiceAvailability> {
  if (process.env.ESDB_URL) return { available: true, url: process.env.ESDB_URL, stop: async () => undefined };
  const docker = await dockerEngine();
  if (!docker.ok) return { available: false, reason: `ESDB_URL is not set and ${docker.reason}` };
  const { GenericContainer, Wait } = await import("testcontainers");
  const container = await new GenericContainer("eventstore/eventstore:24.10")
    .withEnvironment({
      EVENTSTORE_INSECURE: "true",
      EVENTSTORE_MEM_DB: "true",
      EVENTSTORE_RUN_PROJECTIONS: "None",
      EVENTSTORE_CLUSTER_SIZE: "1",
    })
    .withExposedPorts(2113)
    .withWaitStrategy(Wait.forHttp("/health/live", 2113).forStatusCode(204))
    .start();
  return {
    available: true,
    url: `esdb://${container.getHost()}:${container.getMappedPort(2113)}?tls=false`,
    stop: async () => {
      await container.stop();
    },
  };
}

/** Say loudly why a suite is skipped: a skipped suite must never look like a passed one. */
export function announceSkip(suite: string, reason: string): void {
  const line = `SKIPPED ${suite}: ${reason}`;
  console.warn(`\n${"!".repeat(line.length)}\n${line}\n${"!".repeat(line.length)}\n`);
}
