import type { FastifyInstance, FastifyServerOptions } from "fastify";
import type { LoggerOptions } from "pino";
import pretty from "pino-pretty";

// Fastify's own logger (pino). One line per request, written when the reply has gone; every 5xx
// also gets its error with the stack (see errors.ts). Bodies and headers are never logged: the
// line carries the method, the path with any secret-looking query value blanked, the route, the
// status and the time. Redaction below covers what other log calls might pass by mistake.
// A secret in the path (the calendar feed's address) is blanked as one in the query is.

/** Where log lines go: anything with pino's `write(line)`, e.g. a test's capture. */
export type LogDestination = { write: (line: string) => void };

const SECRET_QUERY = /token|secret|password|key|signature|code/i;

/**
 * Paths that carry a secret in a segment: the personal calendar feed's address
 * (/api/v1/calendar/{token}.ics), not its page (/calendar/feed, /calendar/feed/regenerate). Mail
 * links (verify, reset, unsubscribe) carry theirs in `?token=`, blanked with the query.
 */
const SECRET_PATHS: readonly RegExp[] = [/^(\/api\/v1\/calendar\/)(?!feed(?:\/regenerate)?\/?$)[^/]+/i];

/** The path as a router reads it: percent-decoded, repeated slashes as one, dot segments resolved. */
function routedPath(path: string): string {
  let decoded = path;
  try {
    decoded = decodeURIComponent(path);
  } catch {
    /* a malformed escape is read as sent */
  }
  decoded = decoded.replace(/\/{2,}/g, "/");
  try {
    return decodeURIComponent(new URL(decoded, "http://path.invalid").pathname);
  } catch {
    return decoded;
  }
}

/** The path with a secret segment blanked: however it was spelt (%63alendar, //, ./), it is logged as routed. */
function loggablePath(path: string): string {
  const routed = routedPath(path);
  const secret = SECRET_PATHS.find((pattern) => pattern.test(routed));
  return secret ? routed.replace(secret, "$1[redacted]") : path;
}

/** The request's path and query with a secret path segment and the value of every secret-looking parameter (e.g. `?access_token=`) replaced. */
export function loggableUrl(url: string): string {
  const at = url.indexOf("?");
  if (at < 0) return loggablePath(url);
  const params = url
    .slice(at + 1)
    .split("&")
    .map((pair) => {
      const eq = pair.indexOf("=");
      const name = eq < 0 ? pair : pair.slice(0, eq);
      let decoded = name;
      try {
        decoded = decodeURIComponent(name);
      } catch {
        /* a malformed name is logged as sent */
      }
      return eq >= 0 && SECRET_QUERY.test(decoded) ? `${name}=[redacted]` : pair;
    });
  return `${loggablePath(url.slice(0, at))}?${params.join("&")}`;
}

/** Human-readable lines in a terminal, JSON lines (one object per line) otherwise. */
export function logDestination(): LogDestination {
  return process.stdout.isTTY ? pretty({ colorize: true, translateTime: "SYS:HH:MM:ss.l", ignore: "pid,hostname" }) : process.stdout;
}

/** Level and redaction for every process's logger (the API's and the relay's and projector's). */
export function pinoOptions(level = process.env.LOG_LEVEL ?? "info"): LoggerOptions {
  return {
    level,
    redact: {
      paths: [
        "req.headers.authorization",
        "req.headers.cookie",
        'req.headers["x-api-key"]',
        'res.headers["set-cookie"]',
        "headers.authorization",
        "headers.cookie",
        // Postgres puts row values ("Failing row contains ...") in an error's detail.
        "err.detail",
        "err.parameters",
        "body",
        "req.body",
        "password",
        "*.password",
      ],
      censor: "[redacted]",
    },
  };
}

export function loggerOptions(destination: LogDestination, level?: string): NonNullable<FastifyServerOptions["logger"]> {
  return {
    ...pinoOptions(level),
    stream: destination,
    // Fastify's own serializer logs the raw url; any line that carries the request gets it blanked.
    serializers: {
      req: (req: { method: string; url: string; id: string }) => ({ method: req.method, url: loggableUrl(req.url), id: req.id }),
    },
  };
}

/** The per-request line: request id (from the logger's bindings), method, url, route, status, milliseconds. */
export function installRequestLog(app: FastifyInstance): void {
  app.addHook("onResponse", async (request, reply) => {
    const statusCode = reply.statusCode;
    const line = {
      method: request.method,
      url: loggableUrl(request.url),
      route: request.routeOptions.url ?? null,
      statusCode,
      responseTime: Math.round(reply.elapsedTime * 10) / 10,
    };
    if (statusCode >= 500) request.log.error(line, "request failed");
    else request.log.info(line, "request completed");
  });
}
