import { randomUUID } from "node:crypto";
import type { AddressInfo } from "node:net";
import { simpleParser } from "mailparser";
import { SMTPServer } from "smtp-server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Queryable } from "../src/payments/payments-table.ts";
import { TestPaymentProvider } from "../src/payments/test-provider.ts";
import { RefundReactor } from "../src/refunds/reactor.ts";
import { startTestApi, type TestApi } from "./harness.ts";
import { readEverything, testMail } from "./mail-bookings.ts";
import { expertCancels, heldBooking, paidBooking, payHeld, run, type PaidBooking } from "./paid-booking.ts";
import { pdfText } from "./receipts-pdf-text.ts";

// Receipts by mail (issue 29.7): the creator's mail about their payment ("Request sent") and about
// their refund carries the receipt as a PDF, the same document the app serves, and it arrives over
// SMTP byte for byte (base64), not as text.

let api: TestApi;
const lazyDb: Queryable = { query: (text, values) => api.ctx.db.query(text, values) };
const provider = new TestPaymentProvider(lazyDb);

beforeAll(async () => {
  api = await startTestApi({ payments: provider });
});
afterAll(async () => api.close());

const WEEK = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"] as const;

type Attachment = { filename: string; contentType: string; content: string; encoding?: string };

async function creatorMail(b: PaidBooking, kind: string): Promise<Attachment[]> {
  const mail = testMail(api, { smtpUrl: null });
  await readEverything(api, mail.reactor);
  mail.close();
  const { rows } = await api.ctx.db.query<{ attachments: Attachment[] }>(
    "SELECT attachments FROM mail_outbox WHERE booking_id = $1 AND kind = $2 AND user_id = $3",
    [b.bookingId, kind, b.creator.id],
  );
  expect(rows, `${kind} to the creator`).toHaveLength(1);
  return rows[0]!.attachments;
}

async function receiptKeys(b: PaidBooking): Promise<{ kind: string; key: string; url: string }[]> {
  return (await api.call("GET", `/api/v1/bookings/${b.bookingId}/receipts`, { user: b.creator })).json().receipts;
}

describe("receipts by mail", () => {
  it("the creator's 'Request sent' mail carries the payment's receipt, the same PDF the app serves", async () => {
    const b = await paidBooking(api, 9_900);
    const [pdf] = (await creatorMail(b, "booking_requested")).filter((a) => a.contentType === "application/pdf");
    expect(pdf).toBeDefined();
    expect(pdf!.encoding).toBe("base64");
    const bytes = Buffer.from(pdf!.content, "base64");
    const text = pdfText(bytes);
    expect(text).toContain("Payment receipt");
    expect(text).toContain("$99.00 USD");
    expect(text).toContain(b.paymentId);
    const [payment] = await receiptKeys(b);
    expect(pdf!.filename).toBe(`payment-receipt-${payment!.key}.pdf`);
    // The mail's reader and the app's (no zone on file, none asked) get the same document.
    const served = await api.call("GET", payment!.url, { user: b.creator });
    expect(served.rawPayload.equals(bytes)).toBe(true);
    // The expert's mail carries no receipt.
    const { rows } = await api.ctx.db.query<{ attachments: Attachment[] }>(
      "SELECT attachments FROM mail_outbox WHERE booking_id = $1 AND user_id = $2",
      [b.bookingId, b.expert.id],
    );
    expect(rows.flatMap((r) => r.attachments).filter((a) => a.contentType === "application/pdf")).toEqual([]);
  });

  it("the refund mail carries the refund's receipt", async () => {
    const b = await paidBooking(api);
    await expertCancels(api, b);
    await new RefundReactor(
      { log: api.ctx.store, db: api.ctx.db, calendar: api.ctx.calendar, provider, clock: api.ctx.clock },
      {},
    ).runOnce();
    const [pdf] = (await creatorMail(b, "refund_issued")).filter((a) => a.contentType === "application/pdf");
    const text = pdfText(Buffer.from(pdf!.content, "base64"));
    expect(text).toContain("Refund receipt");
    expect(text).toContain("$150.00 USD");
    const [refund] = (
      await api.ctx.db.query<{ refund_id: string }>("SELECT refund_id FROM test_refunds WHERE booking_id = $1", [b.bookingId])
    ).rows;
    expect(text).toContain(refund!.refund_id);
  });

  it("an instant booking's confirmation (its payment's mail to the creator) carries the payment's receipt", async () => {
    const held = await heldBooking(api, 8_000);
    // The same booking, asked again of a calendar that books instantly: a fresh expert and time.
    const expertId = `ex-${randomUUID()}`;
    const bookingId = `bk-${randomUUID()}`;
    await run(api, expertId, {
      type: "SetSchedule",
      expertId,
      actor: { userId: held.expert.id, role: "expert" },
      schedule: { timezone: "UTC", slots: WEEK.map((weekday) => ({ weekday, start_local: "09:00", end_local: "17:00" })) },
    });
    await run(api, expertId, {
      type: "RequestBooking",
      expertId,
      bookingId,
      actor: { userId: held.creator.id, role: "creator" },
      scheduledTime: held.scheduledTime,
      session: {
        sessionId: `s-${randomUUID()}`,
        expertId,
        title: "Instant review",
        lengthMinutes: 60,
        priceCents: 8_000,
        published: true,
        prepQuestions: ["Goal?", "Now?", "Blocker?"],
        instantBooking: true,
      },
      expertUserId: held.expert.id,
      expertVetting: "approved",
      creatorAcceptedTerms: true,
      creatorBookings: [],
      holdMinutes: 15,
    });
    const intent = await api.call("POST", "/api/v1/stripe/test-intent", { user: held.creator, body: { bookingId } });
    const instant = { ...held, bookingId, expertId, ...(intent.json() as { clientSecret: string; paymentId: string }) };
    await payHeld(api, instant);
    const [pdf] = (await creatorMail(instant, "booking_confirmed")).filter((a) => a.contentType === "application/pdf");
    const text = pdfText(Buffer.from(pdf!.content, "base64"));
    expect(text).toContain("Payment receipt");
    expect(text).toContain("$80.00 USD");
    expect(text).toContain(instant.paymentId);
    const [payment] = await receiptKeys(instant);
    expect(pdf!.filename).toBe(`payment-receipt-${payment!.key}.pdf`);
  });

  it("over SMTP the PDF arrives byte for byte", async () => {
    const arrived: { filename: string; contentType: string; content: Buffer }[] = [];
    const server = new SMTPServer({
      authOptional: true,
      disabledCommands: ["STARTTLS", "AUTH"],
      logger: false,
      onData(stream, _session, callback) {
        simpleParser(stream)
          .then((m) => {
            arrived.push(...m.attachments.map((a) => ({ filename: a.filename ?? "", contentType: a.contentType, content: a.content })));
            callback();
          })
          .catch((e: unknown) => callback(e as Error));
      },
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()));
    try {
      const b = await paidBooking(api, 4_250);
      const mail = testMail(api, { smtpUrl: `smtp://127.0.0.1:${(server.server.address() as AddressInfo).port}` });
      await mail.deliver();
      mail.close();
      const [payment] = await receiptKeys(b);
      const sent = arrived.find((a) => a.filename === `payment-receipt-${payment!.key}.pdf`);
      expect(sent?.contentType).toBe("application/pdf");
      const served = await api.call("GET", payment!.url, { user: b.creator });
      expect(sent!.content.equals(served.rawPayload)).toBe(true);
    } finally {
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });
});
