import { stopProcessTracing } from "../tracing/index.ts";

/**
 * SIGTERM or SIGINT: stop taking work, let the current batch finish and commit its checkpoint,
 * close connections, exit 0. A second signal exits at once.
 */
export function stopOnSignals(name: string, stop: () => Promise<void>): void {
  let stopping = false;
  const onSignal = (signal: string) => {
    if (stopping) process.exit(1);
    stopping = true;
    console.error(`${name}: ${signal} received, finishing the current batch`);
    // The spans of the last batch go out before the process does.
    stop()
      .then(() => stopProcessTracing())
      .then(
        () => process.exit(0),
        (e: unknown) => {
          console.error(`${name}: stopped with an error: ${e instanceof Error ? e.message : String(e)}`);
          process.exit(1);
        },
      );
  };
  process.on("SIGTERM", () => onSignal("SIGTERM"));
  process.on("SIGINT", () => onSignal("SIGINT"));
}
