import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestApi, type TestApi } from "./harness.ts";

let api: TestApi;
beforeAll(async () => (api = await startTestApi()));
afterAll(async () => api.close());

describe("terms", () => {
  it("names the latest version", async () => {
    const r = await api.call("GET", "/api/v1/terms/latest");
    expect(r.statusCode).toBe(200);
    expect(r.json()).toEqual({ version_id: "2025-01" });
  });
  it("a new user has not accepted; accepting the latest version records it", async () => {
    const u = await api.user("creator", { acceptTerms: false });
    expect((await api.call("GET", "/api/v1/terms/status", { user: u })).json()).toEqual({ accepted: false });
    const accept = await api.call("POST", "/api/v1/terms/accept", { user: u, body: { version_id: "2025-01" } });
    expect(accept.statusCode).toBe(200);
    expect((await api.call("GET", "/api/v1/terms/status", { user: u })).json()).toEqual({ accepted: true });
    const { rows } = await api.ctx.db.query("SELECT version_id FROM terms_acceptances WHERE user_id = $1", [u.id]);
    expect(rows).toEqual([{ version_id: "2025-01" }]); // read-your-writes: projected before the reply
  });
  it("refuses an old version with the spec's message", async () => {
    const u = await api.user("creator", { acceptTerms: false });
    const r = await api.call("POST", "/api/v1/terms/accept", { user: u, body: { version_id: "2019-01" } });
    expect(r.statusCode).toBe(400);
    expect(r.json()).toEqual({ code: "terms_version_unknown", message: "Could not save acceptance, please try again." });
  });
  it("answers anonymous calls with 'No access token found', and bad tokens with 401", async () => {
    const r = await api.call("GET", "/api/v1/terms/status");
    expect(r.statusCode).toBe(401);
    expect(r.json()).toEqual({ code: "no_access_token", message: "No access token found" });
    const forged = await api.call("GET", "/api/v1/terms/status", {
      headers: { authorization: "Bearer eyJhbGciOiJub25lIn0.eyJzdWIiOiJ4Iiwicm9sZSI6ImFkbWluIn0." },
    });
    expect(forged.statusCode).toBe(401);
  });
  it("refuses unknown fields and malformed JSON with 400, unknown routes with 404", async () => {
    const u = await api.user("creator", { acceptTerms: false });
    expect((await api.call("POST", "/api/v1/terms/accept", { user: u, body: { version_id: "2025-01", extra: 1 } })).statusCode).toBe(400);
    const bad = await api.call("POST", "/api/v1/terms/accept", {
      user: u,
      body: "{not json",
      headers: { "content-type": "application/json" },
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().code).toBe("invalid_request");
    expect((await api.call("GET", "/api/v1/nope")).json()).toEqual({ code: "not_found", message: "Not found." });
  });
});
