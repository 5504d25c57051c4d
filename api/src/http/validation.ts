import type { FastifySchemaCompiler } from "fastify";
import { validatorCompiler } from "fastify-type-provider-zod";
import { holdsUnstorableText } from "@booking/contracts";
import { refuse } from "./errors.ts";

/**
 * Every route's body, query and parameters pass here before their zod schema: text Postgres cannot
 * store (NUL) or that is not text (a lone surrogate) is refused once, for every route, so none can
 * forget and none answers 500 when the database refuses it.
 */
export const boundaryValidatorCompiler: FastifySchemaCompiler<unknown> = (route) => {
  const validate = validatorCompiler(route as Parameters<typeof validatorCompiler>[0]);
  return (data: unknown) => {
    if (holdsUnstorableText(data)) refuse("invalid_request");
    return validate(data);
  };
};
