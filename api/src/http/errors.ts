import type { FastifyError, FastifyInstance } from "fastify";
import { hasZodFastifySchemaValidationErrors } from "fastify-type-provider-zod";
import { errorBody, isErrorCode, refusal, refusalStatus, type ErrorCode, type Refusal, type Result } from "@booking/contracts";

/** A user-facing failure: thrown anywhere in a route, answered as `{ code, message }` with the catalogue's status. */
export class Refused extends Error {
  constructor(readonly refusal: Refusal) {
    super(refusal.code);
    this.name = "Refused";
  }
}

export function refuse(code: ErrorCode, params?: Record<string, string>): never {
  throw new Refused(refusal(code, params));
}

/** The value of an engine result, or the refusal thrown for the error handler. */
export function valueOf<T>(result: Result<T>): T {
  if (!result.ok) throw new Refused(result.refusal);
  return result.value;
}

const byFastifyCode: Record<string, ErrorCode> = {
  FST_ERR_CTP_BODY_TOO_LARGE: "request_too_large",
  FST_ERR_CTP_INVALID_MEDIA_TYPE: "unsupported_media_type",
  FST_ERR_CTP_EMPTY_JSON_BODY: "invalid_request",
  FST_ERR_CTP_INVALID_JSON_BODY: "invalid_request",
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: "invalid_request",
  FST_ERR_FAILED_ERROR_SERIALIZATION: "something_went_wrong",
  FST_REQ_FILE_TOO_LARGE: "image_too_large",
  FST_FILES_LIMIT: "request_too_large",
  FST_PARTS_LIMIT: "request_too_large",
  FST_INVALID_MULTIPART_CONTENT_TYPE: "unsupported_media_type",
  FST_ERR_VALIDATION: "invalid_request",
};

/** Every error becomes `{ code, message }` with a non-5xx status unless it is a bug; no stack traces leave. */
export function installErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError & { refusal?: Refusal }, request, reply) => {
    if (error instanceof Refused) return reply.status(refusalStatus(error.refusal)).send(errorBody(error.refusal));
    if (hasZodFastifySchemaValidationErrors(error)) {
      const first = error.validation[0];
      const message = first?.message ?? "";
      const code: ErrorCode = isErrorCode(message) ? message : "invalid_request";
      return reply.status(refusalStatus(refusal(code))).send(errorBody(refusal(code)));
    }
    if (error.statusCode === 429) return reply.status(429).send(errorBody(refusal("over_request_rate_limit")));
    const mapped = error.code ? byFastifyCode[error.code] : undefined;
    // A reply our own schema cannot serialise is a bug even though the client gets a 4xx: keep its trace.
    if (mapped === "something_went_wrong") request.log.error({ err: error }, "reply failed to serialise");
    if (mapped) return reply.status(refusalStatus(refusal(mapped))).send(errorBody(refusal(mapped)));
    if (error.statusCode && error.statusCode >= 400 && error.statusCode < 500) {
      const code: ErrorCode =
        error.statusCode === 401
          ? "session_expired"
          : error.statusCode === 404
            ? "not_found"
            : error.statusCode === 413
              ? "request_too_large"
              : error.statusCode === 415
                ? "unsupported_media_type"
                : "invalid_request";
      return reply.status(error.statusCode).send(errorBody(refusal(code)));
    }
    // The one place a 5xx is made: its stack goes to the log (the client sees the catalogue's message only).
    request.log.error({ err: error }, "unhandled error");
    return reply.status(500).send(errorBody(refusal("something_went_wrong")));
  });
  app.setNotFoundHandler((_request, reply) => reply.status(404).send(errorBody(refusal("not_found"))));
}
