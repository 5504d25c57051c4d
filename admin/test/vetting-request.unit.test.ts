import { afterEach, describe, expect, it, vi } from "vitest";
import { HttpError } from "react-admin";
import { dataProvider } from "../src/data-provider.ts";

// Issue 27.20: the console's update of an expert is the vetting decision and its reason; the
// data provider once sent `{ verified }` alone, so the reason typed in the dialog never reached the API.

afterEach(() => vi.unstubAllGlobals());

describe("the console's vetting request", () => {
  it("sends the decision and its reason, and nothing else of the expert", async () => {
    const sent: { url: string; body: unknown }[] = [];
    vi.stubGlobal(
      "fetch",
      vi.fn((url: string, init: RequestInit) => {
        sent.push({ url, body: JSON.parse(String(init.body)) });
        return Promise.resolve(
          new Response(JSON.stringify({ id: "ex-1", verified: true }), { status: 200, headers: { "content-type": "application/json" } }),
        );
      }),
    );
    await dataProvider.update("experts", {
      id: "ex-1",
      data: { verified: true, reason: "References checked", title: "Hacker" },
      previousData: { id: "ex-1" },
    });
    expect(sent).toEqual([
      { url: expect.stringMatching(/\/admin\/experts\/ex-1$/), body: { verified: true, reason: "References checked" } },
    ]);
  });
});

// Issue 30: the review steps, suspension and standing, as the API takes them under /api/v1/admin.

/** fetch answering `status` with `reply`; the requests sent, with their method and JSON body. */
function answering(status: number, reply: unknown): { method: string; url: string; body: unknown }[] {
  const sent: { method: string; url: string; body: unknown }[] = [];
  vi.stubGlobal(
    "fetch",
    vi.fn((url: string, init: RequestInit) => {
      sent.push({ method: init.method ?? "GET", url, body: init.body === undefined ? undefined : JSON.parse(String(init.body)) });
      return Promise.resolve(new Response(JSON.stringify(reply), { status, headers: { "content-type": "application/json" } }));
    }),
  );
  return sent;
}

describe("the console's vetting calls", () => {
  it("posts a decision with the revision seen, the reason and the checklist to the application's decision", async () => {
    const sent = answering(200, { id: "ex-1", status: "approved" });
    const checklist = { identity_plausible: true, links_work: false };
    await dataProvider.decideApplication("ex-1", { seen_revision: 4, decision: "approve", reason: "Strong portfolio", checklist });
    expect(sent).toEqual([
      {
        method: "POST",
        url: expect.stringMatching(/\/api\/v1\/admin\/applications\/ex-1\/decision$/),
        body: { seen_revision: 4, decision: "approve", reason: "Strong portfolio", checklist },
      },
    ]);
  });

  it("posts the start of a review and a note with the revision seen", async () => {
    const sent = answering(200, { id: "ex-1" });
    await dataProvider.startApplicationReview("ex-1", 2);
    await dataProvider.noteApplication("ex-1", { seen_revision: 3, note: "Called a reference" });
    expect(sent).toEqual([
      { method: "POST", url: expect.stringMatching(/\/admin\/applications\/ex-1\/review$/), body: { seen_revision: 2 } },
      {
        method: "POST",
        url: expect.stringMatching(/\/admin\/applications\/ex-1\/notes$/),
        body: { seen_revision: 3, note: "Called a reference" },
      },
    ]);
  });

  it("refuses a step on a changed application with the API's code and message", async () => {
    const message = "This application changed since you opened it. Please reload.";
    answering(409, { code: "application_changed", message });
    const refused = await dataProvider.startApplicationReview("ex-1", 1).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(HttpError);
    expect(refused).toMatchObject({ status: 409, message, body: { code: "application_changed" } });
  });

  it("suspends and reinstates with the reason, and reads the standing", async () => {
    const sent = answering(200, { status: "suspended", open_bookings: [] });
    await dataProvider.suspendExpert("ex-1", "No-shows");
    await dataProvider.reinstateExpert("ex-1", "Explained");
    await dataProvider.expertStanding("ex-1");
    expect(sent).toEqual([
      { method: "POST", url: expect.stringMatching(/\/admin\/experts\/ex-1\/suspension$/), body: { reason: "No-shows" } },
      { method: "POST", url: expect.stringMatching(/\/admin\/experts\/ex-1\/reinstatement$/), body: { reason: "Explained" } },
      { method: "GET", url: expect.stringMatching(/\/admin\/experts\/ex-1\/standing$/), body: undefined },
    ]);
  });
});
