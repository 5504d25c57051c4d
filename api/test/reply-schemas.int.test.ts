import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { API_PREFIX } from "../src/main/app.ts";
import { startTestApi, type TestApi } from "./harness.ts";
import { registeredRoutes } from "./route-catalogue.ts";

// Every reply of /api/v1 goes out through a schema from contracts (issue 14.2): the OpenAPI
// document then describes it, web/ and admin/ infer their types from it, and a reply that strays
// from it fails a test instead of reaching a user. A route added without one fails here.

/** Replies that are not JSON, so no JSON schema can describe them. */
const NOT_JSON: Record<string, string> = {
  "GET /stream": "Server-Sent Events: a never-ending text/event-stream, written to the raw socket",
  "GET /media/experts/{expertId}/profile": "an image file",
  "GET /admin/terms-acceptances/export.csv": "a CSV file",
  "GET /admin/early-access/export.csv": "a CSV file",
  "GET /bookings/{bookingId}/calendar.ics": "an iCalendar file (text/calendar)",
  "GET /calendar/{file}": "an iCalendar feed (text/calendar)",
  "GET /bookings/{bookingId}/receipts/{file}": "a receipt as a PDF (application/pdf)",
  "GET /experts/me/statements/{file}": "a monthly statement as a PDF (application/pdf) or a CSV (text/csv)",
  "GET /admin/payout-accounts/{expertId}/statements/{file}": "an expert's monthly statement as a PDF (application/pdf) or a CSV (text/csv)",
  "GET /admin/disputes/{id}/evidence.pdf": "a dispute's evidence as a PDF (application/pdf)",
};

type Operation = { responses?: Record<string, { content?: Record<string, { schema?: unknown }> }> };
type Doc = { paths: Record<string, Record<string, Operation>> };

let api: TestApi;
let doc: Doc;

beforeAll(async () => {
  api = await startTestApi();
  doc = (await api.call("GET", "/api/v1/docs")).json<Doc>();
});
afterAll(() => api?.close());

/** `METHOD /path` for every operation the document lists (hidden routes, as /healthz, are not in it). */
function operations(): [string, Operation][] {
  return Object.entries(doc.paths).flatMap(([path, methods]) =>
    Object.entries(methods).map(([method, op]): [string, Operation] => [`${method.toUpperCase()} ${path}`, op]),
  );
}

/** A success reply the route declares: a 2xx with a JSON body schema, or a 204 (no body to describe). */
function declaresSuccess(op: Operation): boolean {
  return Object.entries(op.responses ?? {}).some(
    ([status, r]) => /^2\d\d$/.test(status) && (status === "204" || r.content?.["application/json"]?.schema !== undefined),
  );
}

describe("reply schemas", () => {
  it("every route under /api/v1 declares its success reply, except the few that are not JSON", () => {
    const missing = operations()
      .filter(([key, op]) => !declaresSuccess(op) && !(key in NOT_JSON))
      .map(([key]) => key);
    expect(missing).toEqual([]);
  });

  it("leaves out of the document only the probes and the document itself", () => {
    const documented = new Set(operations().map(([key]) => key.replace(" ", ` ${API_PREFIX}`).replace(/\{[^}]+\}/g, ":")));
    const hidden = registeredRoutes(api.app).filter((key) => key.includes(` ${API_PREFIX}/`) && !documented.has(key));
    expect(hidden).toEqual([`GET ${API_PREFIX}/docs`, `GET ${API_PREFIX}/healthz`, `GET ${API_PREFIX}/readyz`]);
  });

  it("names only routes that exist in its exceptions", () => {
    const keys = new Set(operations().map(([key]) => key));
    expect(Object.keys(NOT_JSON).filter((key) => !keys.has(key))).toEqual([]);
  });
});
