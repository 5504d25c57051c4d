import { expect } from "vitest";
import type { z } from "zod";
import type { TestApi, TestUser } from "./harness.ts";

// What the *-replies tests check of a reply: it succeeded, and it holds exactly its schema's fields.

/** A call under /api/v1 that must succeed; its JSON body. */
export async function succeeded(
  api: TestApi,
  method: "GET" | "POST" | "PUT" | "PATCH" | "DELETE",
  url: string,
  user?: TestUser,
  body?: unknown,
) {
  const r = await api.call(method, `/api/v1${url}`, { user, body });
  expect(r.statusCode, `${method} ${url}: ${r.body}`).toBeLessThan(300);
  return r.json();
}

/** Exactly the schema's fields, each of its type. */
export function exactly(schema: z.ZodObject, reply: unknown) {
  expect(Object.keys(reply as object).sort()).toEqual(Object.keys(schema.shape).sort());
  schema.parse(reply);
}
