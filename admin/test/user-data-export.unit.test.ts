import { afterEach, describe, expect, it, vi } from "vitest";
import { HttpError } from "react-admin";
import { dataProvider } from "../src/data-provider.ts";
import { userDataFileName } from "../src/users/user-data-export.tsx";

// Issue 33.3: the console produces a user's data on their request from GET /api/v1/admin/users/{id}/export.

afterEach(() => vi.unstubAllGlobals());

function answering(status: number, body: string): string[] {
  const urls: string[] = [];
  vi.stubGlobal(
    "fetch",
    vi.fn((url: string) => {
      urls.push(url);
      return Promise.resolve(new Response(body, { status, headers: { "content-type": "application/json" } }));
    }),
  );
  return urls;
}

describe("a user's data from the console", () => {
  it("downloads the user's export, the id in the path encoded, and names the file after the user", async () => {
    const body = JSON.stringify({ format: "expert-sessions-export/1", user_id: "u/1" });
    const urls = answering(200, body);
    const blob = await dataProvider.userDataExport("u/1 x");
    expect(urls).toEqual(["/api/v1/admin/users/u%2F1%20x/export"]);
    expect(blob.size).toBe(body.length);
    expect(userDataFileName("u/1 x")).toBe("user-u_1_x-data.json");
  });

  it("fails a refused download with the API's message", async () => {
    answering(404, JSON.stringify({ code: "not_found", message: "Not found." }));
    const refused = await dataProvider.userDataExport("missing").catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(HttpError);
    expect((refused as HttpError).message).toBe("Not found.");
  });
});
