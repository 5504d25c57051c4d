import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { errorBody, refusal, type ErrorCode } from "@booking/contracts";
import { DEFAULT_SUPPORT_ADDRESS } from "../src/support/routes.ts";
import { startTestApi, type TestApi } from "./harness.ts";

// Issue 27.3: the help page's contact form mails the support address; a visitor needs no account.

let api: TestApi;
let clients = 0;

beforeAll(async () => {
  api = await startTestApi();
});
afterAll(async () => api?.close());

const send = (body: unknown) =>
  api.call("POST", "/api/v1/support/messages", { body, headers: { "x-forwarded-for": `198.51.100.${(clients++ % 250) + 1}` } });
const message = (over: Record<string, unknown> = {}) => ({
  name: "Nora Maker",
  email: "nora-help@example.com",
  topic: "refund",
  message: "My refund for Tuesday's session has not arrived.",
  ...over,
});
const supportMails = async () =>
  (
    await api.ctx.db.query<{
      to_address: string;
      kind: string;
      subject: string;
      text_body: string;
      headers: Record<string, string> | null;
      user_id: string | null;
    }>("SELECT to_address, kind, subject, text_body, headers, user_id FROM mail_outbox WHERE kind = 'support_request' ORDER BY created_at")
  ).rows;

describe("POST /support/messages", () => {
  it("mails the visitor's message to the support address, with replies going to the visitor", async () => {
    const r = await send(message({ email: " Nora-Help@Example.com " }));
    expect(r.statusCode).toBe(204);
    const [mail] = await supportMails();
    expect(mail).toMatchObject({
      to_address: DEFAULT_SUPPORT_ADDRESS,
      kind: "support_request",
      user_id: null,
      headers: { "Reply-To": "nora-help@example.com" },
    });
    expect(mail!.subject).toBe("Help request about a refund, from Nora Maker");
    expect(mail!.text_body).toContain("My refund for Tuesday's session has not arrived.");
  });

  it("refuses a missing or wrong field with the catalogue's message, mailing nothing", async () => {
    const before = (await supportMails()).length;
    const cases: [Record<string, unknown>, ErrorCode][] = [
      [{ name: "  " }, "support_name_required"],
      [{ name: "Nora\rBcc: x@evil.test" }, "support_name_required"],
      [{ email: "not-an-address" }, "support_email_invalid"],
      [{ topic: "lawsuit" }, "support_topic_required"],
      [{ message: "" }, "support_message_required"],
      [{ message: "m".repeat(4001) }, "support_message_required"],
    ];
    for (const [over, code] of cases) {
      const r = await send(message(over));
      expect([r.statusCode, r.json()], JSON.stringify(over)).toEqual([400, errorBody(refusal(code))]);
    }
    expect((await supportMails()).length).toBe(before);
  });
});
