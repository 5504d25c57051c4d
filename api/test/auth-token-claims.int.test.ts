import { createHmac } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { authClient, refusals, type AuthSession } from "./auth-client.ts";
import { startTestApi, TEST_JWT_SECRET, type TestApi } from "./harness.ts";

// Issue 26 item 14: an access token signed with the real key but missing its expiry or its sign-in
// (`exp`, `sid`) is not one we issue. Without `exp` it would never end; without `sid` no logout or
// password change could end it. Both ways a token arrives (the Bearer header, the event stream's
// `?access_token=`) refuse it.

let api: TestApi;
beforeAll(async () => (api = await startTestApi()));
afterAll(async () => api?.close());

const { call, signup } = authClient(() => api, "198.21");

/** A token signed with the API's own key, with exactly `claims`. */
function signedWithRealKey(claims: Record<string, unknown>): string {
  const part = (o: object) => Buffer.from(JSON.stringify(o)).toString("base64url");
  const unsigned = `${part({ alg: "HS256", typ: "JWT" })}.${part(claims)}`;
  return `${unsigned}.${createHmac("sha256", TEST_JWT_SECRET).update(unsigned).digest("base64url")}`;
}

/** The claims of the session's own access token (its `sid` names a real sign-in). */
const claimsOf = (s: AuthSession) =>
  JSON.parse(Buffer.from(s.access_token.split(".")[1]!, "base64url").toString()) as Record<string, unknown>;

const stream = (token: string) =>
  api.app.inject({
    method: "GET",
    url: `/api/v1/stream?access_token=${encodeURIComponent(token)}`,
    headers: { "x-forwarded-for": "198.21.9.9" },
  });

describe("access tokens must carry exp and sid", () => {
  let session: AuthSession;
  let issued: Record<string, unknown>;
  beforeAll(async () => {
    session = await signup();
    issued = claimsOf(session);
  });

  it("the token a sign-in issues carries both, and a copy re-signed with the same claims works", async () => {
    expect(issued).toMatchObject({ sub: session.user.id, sid: expect.any(String), exp: expect.any(Number) });
    expect((await call("GET", "/auth/me", { token: signedWithRealKey(issued) })).statusCode).toBe(200);
  });

  it("refuses a token without exp: 401 session_expired, on the header and on the stream", async () => {
    const { exp: _exp, ...noExpiry } = issued;
    const token = signedWithRealKey(noExpiry);
    const me = await call("GET", "/auth/me", { token });
    expect(me.statusCode).toBe(401);
    expect(me.json()).toEqual(refusals.session_expired);
    const r = await stream(token);
    expect(r.statusCode).toBe(401);
    expect(r.json()).toEqual(refusals.session_expired);
  });

  it("refuses a token without sid: 401 session_expired, on the header and on the stream", async () => {
    const { sid: _sid, ...noSignIn } = issued;
    const token = signedWithRealKey(noSignIn);
    const me = await call("GET", "/auth/me", { token });
    expect(me.statusCode).toBe(401);
    expect(me.json()).toEqual(refusals.session_expired);
    const r = await stream(token);
    expect(r.statusCode).toBe(401);
    expect(r.json()).toEqual(refusals.session_expired);
  });

  it("refuses a non-numeric exp and an empty sid", async () => {
    for (const claims of [
      { ...issued, exp: "never" },
      { ...issued, sid: "" },
    ]) {
      const r = await call("GET", "/auth/me", { token: signedWithRealKey(claims) });
      expect(r.statusCode, JSON.stringify(claims)).toBe(401);
      expect(r.json()).toEqual(refusals.session_expired);
    }
  });
});
