import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { errorCatalogue } from "@booking/contracts";
import { expertStream } from "@booking/engine";
import { startTestApi, type TestApi, type TestUser } from "./harness.ts";

// Vetting from the console (issue 27.20): Verify and Unverify carry the admin's reason, kept with
// the event so the expert's history says why; a decision without one is refused with the catalogue's message.

let api: TestApi;
let admin: TestUser;
const expertId = `ex-${randomUUID().slice(0, 8)}`;
const vet = (body: unknown) => api.call("PUT", `/api/v1/admin/experts/${expertId}`, { user: admin, body });

beforeAll(async () => {
  api = await startTestApi();
  admin = await api.user("admin");
  const expertUser = await api.user("expert");
  const expert = { userId: expertUser.id, role: "expert" as const };
  const profile = { firstName: "Vera", lastName: "Reason", title: "Brand strategist", bio: null, tags: [], profileImage: null };
  const saved = await api.ctx.experts.handle(
    expertStream(expertId),
    { type: "SaveExpertProfile", expertId, actor: expert, userId: expertUser.id, profile, published: true },
    { actor: expert },
  );
  if (!saved.ok) throw new Error("profile refused");
  await api.ctx.projected(saved.value);
});

afterAll(async () => api?.close());

describe("PUT /admin/experts/{id} with a reason", () => {
  it("records the reason with ExpertVerified and ExpertUnverified", async () => {
    expect((await vet({ verified: true, reason: "  Checked her portfolio and two references.  " })).json()).toMatchObject({
      id: expertId,
      verified: true,
    });
    expect((await vet({ verified: false, reason: "Complaints from three creators" })).json()).toMatchObject({
      id: expertId,
      verified: false,
    });
    const { events } = await api.ctx.store.readStream(expertStream(expertId));
    expect(events.slice(-2).map((e) => [e.type, e.data])).toEqual([
      ["ExpertVerified", { expertId, by: admin.id, reason: "Checked her portfolio and two references." }],
      ["ExpertUnverified", { expertId, by: admin.id, reason: "Complaints from three creators" }],
    ]);
  });

  it("refuses a decision without a reason, or with a blank or over-long one, with the catalogue's message", async () => {
    for (const body of [{ verified: true }, { verified: true, reason: "   " }, { verified: true, reason: "x".repeat(501) }]) {
      const reply = await vet(body);
      expect(reply.statusCode).toBe(400);
      expect(reply.json()).toMatchObject({ code: "vetting_reason_required", message: errorCatalogue.vetting_reason_required.message });
    }
    expect((await api.ctx.db.query("SELECT verified FROM experts WHERE expert_id = $1", [expertId])).rows).toEqual([{ verified: false }]);
  });
});
