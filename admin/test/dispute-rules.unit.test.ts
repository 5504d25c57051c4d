import { afterEach, describe, expect, it, vi } from "vitest";
import { HttpError } from "react-admin";
import { dataProvider } from "../src/data-provider.ts";
import { evidenceLeftText, reasonText, testPaymentIds } from "../src/disputes/dispute-record.ts";
import type { TimelineEntry } from "@booking/contracts";

// Issue 31.2: the console's dispute calls as the API takes them under /api/v1/admin, and the rules it words disputes by.

afterEach(() => vi.unstubAllGlobals());

type Sent = { method: string; url: string; body: unknown };

/** fetch answering `status` with `reply` (JSON, or a PDF's bytes); the requests sent. */
function answering(status: number, reply: unknown, type = "application/json"): Sent[] {
  const sent: Sent[] = [];
  vi.stubGlobal(
    "fetch",
    vi.fn((url: string, init: RequestInit = {}) => {
      sent.push({ method: init.method ?? "GET", url, body: init.body === undefined ? undefined : JSON.parse(String(init.body)) });
      const body = type === "application/json" ? JSON.stringify(reply) : String(reply);
      return Promise.resolve(new Response(body, { status, headers: { "content-type": type } }));
    }),
  );
  return sent;
}

describe("the console's dispute calls", () => {
  it("downloads a dispute's evidence from its evidence.pdf, the id in the path encoded", async () => {
    const sent = answering(200, "%PDF-1.7", "application/pdf");
    const blob = await dataProvider.disputeEvidence("dp_1/odd id");
    expect(sent).toEqual([{ method: "GET", url: "/api/v1/admin/disputes/dp_1%2Fodd%20id/evidence.pdf", body: undefined }]);
    expect(blob.type).toBe("application/pdf");
    expect(blob.size).toBe("%PDF-1.7".length);
  });

  it("fails a refused download with the API's message", async () => {
    answering(404, { code: "not_found", message: "Not found." });
    const refused = await dataProvider.disputeEvidence("dp_missing").catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(HttpError);
    expect((refused as HttpError).message).toBe("Not found.");
    expect((refused as HttpError).status).toBe(404);
  });

  it("posts a test dispute to the payment's test-dispute with the body as given", async () => {
    const sent = answering(200, { id: "dp_test_pi_1", status: "needs_response" });
    await dataProvider.openTestDispute("pi_1", { reason: "duplicate", status: "needs_response", amount_cents: 1250 });
    expect(sent).toEqual([
      {
        method: "POST",
        url: "/api/v1/admin/payments/pi_1/test-dispute",
        body: { reason: "duplicate", status: "needs_response", amount_cents: 1250 },
      },
    ]);
  });

  it("fails a refused test dispute with the API's code and message", async () => {
    const message = "Test disputes can only be opened on payments made with the test provider.";
    answering(409, { code: "dispute_test_provider_only", message });
    const refused = await dataProvider.openTestDispute("pi_live", { status: "lost" }).catch((e: unknown) => e);
    expect((refused as HttpError).message).toBe(message);
    expect((refused as HttpError).body).toEqual({ code: "dispute_test_provider_only", message });
  });
});

describe("the dispute rules the console applies", () => {
  it("words an evidence deadline as the days left, the hours on the last day, or overdue", () => {
    const now = Date.parse("2026-05-01T12:00:00.000Z");
    expect(evidenceLeftText("2026-05-08T12:00:00.000Z", now)).toBe("in 7 days");
    expect(evidenceLeftText("2026-05-03T11:00:00.000Z", now)).toBe("in 1 day");
    expect(evidenceLeftText("2026-05-02T11:00:00.000Z", now)).toBe("in 23 hours");
    expect(evidenceLeftText("2026-05-01T13:30:00.000Z", now)).toBe("in 1 hour");
    expect(evidenceLeftText("2026-05-01T12:30:00.000Z", now)).toBe("in under an hour");
    expect(evidenceLeftText("2026-05-01T12:00:00.000Z", now)).toBe("overdue");
    expect(evidenceLeftText("2026-04-20T12:00:00.000Z", now)).toBe("overdue");
  });

  it("finds the booking's payments made with the test provider in its history, and no other", () => {
    const entry = (type: string, data: Record<string, unknown>, n: number): TimelineEntry => ({
      event_id: `e${n}`,
      type,
      time: "2026-05-01T12:00:00.000Z",
      actor: null,
      version: n,
      position: String(n),
      data,
    });
    const timeline = [
      entry("BookingRequested", { bookingId: "b" }, 1),
      entry("PaymentFailed", { bookingId: "b", paymentId: "pi_test_failed", reason: "card declined" }, 2),
      entry("PaymentSucceeded", { bookingId: "b", paymentId: "pi_live_1", provider: "stripe" }, 3),
      entry("PaymentSucceeded", { bookingId: "b", paymentId: "pi_test_1", provider: "test" }, 4),
      entry("PaymentSucceeded", { bookingId: "b", paymentId: "pi_test_1", provider: "test" }, 5),
    ];
    expect(testPaymentIds(timeline)).toEqual(["pi_test_1"]);
    expect(testPaymentIds(undefined)).toEqual([]);
  });

  it("words the provider's reason codes", () => {
    expect(reasonText("product_not_received")).toBe("Product not received");
    expect(reasonText("fraudulent")).toBe("Fraudulent");
    expect(reasonText("")).toBe("—");
  });
});
