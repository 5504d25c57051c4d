import { pino, type Logger } from "pino";
import { logDestination, pinoOptions } from "../http/index.ts";

/** A process's own logger (relay, projector): pino like the API's, pretty in a terminal, JSON lines otherwise. */
export function processLog(name: string): Logger {
  return pino({ ...pinoOptions(), base: { process: name } }, logDestination());
}
