import { afterEach, describe, expect, it, vi } from "vitest";
import { HttpError } from "react-admin";
import { dataProvider } from "../src/data-provider.ts";
import { fakeConversation } from "./console-fakes.ts";

// Issue 31.3: the console reads a booking's conversation through the parties' route, which admins may read; there is
// no admin route of its own.

afterEach(() => vi.unstubAllGlobals());

function answering(status: number, reply: unknown): { method: string; url: string }[] {
  const sent: { method: string; url: string }[] = [];
  vi.stubGlobal(
    "fetch",
    vi.fn((url: string, init: RequestInit) => {
      sent.push({ method: init.method ?? "GET", url });
      return Promise.resolve(new Response(JSON.stringify(reply), { status, headers: { "content-type": "application/json" } }));
    }),
  );
  return sent;
}

describe("the console's conversation call", () => {
  it("reads GET /api/v1/bookings/{id}/messages and answers the thread", async () => {
    const sent = answering(200, fakeConversation("b 1"));
    const reply = await dataProvider.bookingConversation("b 1");
    expect(sent).toEqual([{ method: "GET", url: expect.stringMatching(/\/api\/v1\/bookings\/b%201\/messages$/) }]);
    expect(reply.messages.map((m) => m.role)).toEqual(["creator", "expert"]);
  });

  it("a refusal is an HttpError with the API's message", async () => {
    answering(404, { code: "booking_not_found", message: "No booking found" });
    const refused = await dataProvider.bookingConversation("missing").catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(HttpError);
    expect(refused).toMatchObject({ status: 404, message: "No booking found" });
  });
});
