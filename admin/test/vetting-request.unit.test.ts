import { afterEach, describe, expect, it, vi } from "vitest";
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
