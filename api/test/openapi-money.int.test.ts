import { afterAll, beforeAll, expect, it } from "vitest";
import { startTestApi, type TestApi } from "./harness.ts";

// The OpenAPI document tells the money flow (issue 29: "README and the OpenAPI document describe
// the money flow"), and every route its story names is one the document lists, so the story
// cannot drift from the API it describes.

type Doc = { info: { description?: string }; paths: Record<string, Record<string, unknown>> };

let api: TestApi;
let doc: Doc;

beforeAll(async () => {
  api = await startTestApi();
  doc = (await api.call("GET", "/api/v1/docs")).json<Doc>();
});
afterAll(() => api?.close());

it("describes the money flow from the creator's payment to the expert's payout, naming only routes it lists", () => {
  const story = doc.info.description ?? "";
  for (const step of ["platform fee", "clearing", "transferred", "paid out", "ledger", "reconciled", "receipts", "statements"])
    expect(story, step).toContain(step);
  // "GET /path" as the story writes it; a statement's "{YYYY-MM}.pdf|.csv" is the document's "{file}".
  const named = [...story.matchAll(/(GET|POST) (\/[^\s,;)]+)/g)].map(([, method, path]) => ({
    method: method!.toLowerCase(),
    path: path!.replace(/\{YYYY-MM\}\.pdf\|\.csv$/, "{file}").replace("/bookings/{id}", "/bookings/{bookingId}"),
  }));
  expect(named.length).toBeGreaterThanOrEqual(7);
  expect(named.filter(({ method, path }) => !doc.paths[path]?.[method]).map(({ method, path }) => `${method} ${path}`)).toEqual([]);
});
