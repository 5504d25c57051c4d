import { mkdir, writeFile } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import { chromium, type Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { signLink } from "../src/auth/signed-links.ts";
import { accountExistsMail, passwordResetMail, verificationMail } from "../src/mail/account-mails.ts";
import type { BookingFact } from "../src/mail/facts.ts";
import { MAIL_KINDS, type MailKind, type OutgoingMail } from "../src/mail/outbox.ts";
import { owedMails, vettingMail, type BookingState, type MailEnv } from "../src/mail/owed.ts";
import { supportRequestMail } from "../src/support/support-mail.ts";
import { TEST_JWT_SECRET } from "./harness.ts";
import { PUBLIC_URL } from "./mail-bookings.ts";

// Every template rendered as it is queued (the account mails and, through owedMails, each booking
// mail), its HTML opened in Chromium at a desktop and a phone width: PNGs in test-artifacts/mail/
// to look at, and checks that the HTML keeps to what mail clients render (no scripts, styles or
// tables; inline styles only), that the button goes where the text link goes, and that a phone
// never scrolls sideways.

const ARTIFACTS = fileURLToPath(new URL("../../test-artifacts/mail/", import.meta.url));
const now = "2027-03-10T12:00:00.000Z";
const env: MailEnv = {
  publicUrl: PUBLIC_URL,
  unsubscribeToken: (userId, at) => signLink(TEST_JWT_SECRET, "unsubscribe", userId, at),
  now,
  meetingRoomUrlTemplate: null,
};

const state: BookingState = {
  booking: {
    bookingId: "bk-7f3a",
    title: "Pricing & positioning review",
    startsAt: "2027-03-30T15:00:00.000Z",
    lengthMinutes: 60,
    priceCents: 15_000,
    joinLink: "https://meet.example.com/ava-weber/pricing",
  },
  paidCents: 15_000,
  confirmed: true,
  expert: {
    userId: "u-ava",
    email: "ava@example.com",
    firstName: "Ava",
    lastName: "Weber",
    zone: "Europe/Berlin",
    reminderMails: true,
    version: 1,
  },
  creator: {
    userId: "u-cole",
    email: "cole@example.com",
    firstName: "Cole",
    lastName: "Rivera",
    zone: "America/Los_Angeles",
    reminderMails: true,
    version: 2,
  },
};
const read = { at: now, version: 9 };
const facts: BookingFact[] = [
  { ...read, eventId: "e1", kind: "paid", bookingId: "bk-7f3a", amountCents: 15_000, respondBy: "2027-03-12T12:00:00.000Z" },
  {
    ...read,
    eventId: "e2",
    kind: "info_requested",
    bookingId: "bk-7f3a",
    note: "Which pricing page should we look at: the current one, or the draft you sent?\nA link to both helps.",
  },
  {
    ...read,
    eventId: "e3",
    kind: "time_proposed",
    bookingId: "bk-7f3a",
    startsAt: "2027-03-30T15:00:00.000Z",
    previousTime: "2027-03-26T16:00:00.000Z",
  },
  { ...read, eventId: "e4", kind: "confirmed", bookingId: "bk-7f3a", by: "expert", instant: false, meetingRoom: null },
  {
    ...read,
    eventId: "e5",
    kind: "cancelled",
    bookingId: "bk-7f3a",
    by: "expert",
    reason: "I am travelling that week, sorry.",
    refundCents: 15_000,
  },
  { ...read, eventId: "e6", kind: "refund_issued", bookingId: "bk-7f3a", amountCents: 15_000 },
  { ...read, eventId: "e7", kind: "notes_added", bookingId: "bk-7f3a" },
  {
    ...read,
    eventId: "e8",
    kind: "reschedule_requested",
    bookingId: "bk-7f3a",
    from: "2027-03-30T15:00:00.000Z",
    to: "2027-04-01T16:00:00.000Z",
  },
  {
    ...read,
    eventId: "e9",
    kind: "rescheduled",
    bookingId: "bk-7f3a",
    startsAt: "2027-03-30T15:00:00.000Z",
    previousTime: "2027-03-29T15:00:00.000Z",
  },
  {
    ...read,
    eventId: "e10",
    kind: "reschedule_declined",
    bookingId: "bk-7f3a",
    from: "2027-03-30T15:00:00.000Z",
    to: "2027-04-01T16:00:00.000Z",
    reason: "That week is full, sorry.",
  },
  { ...read, eventId: "e12", kind: "join_link_set", bookingId: "bk-7f3a", url: "https://meet.example.com/ava-weber/pricing" },
  {
    ...read,
    eventId: "e13",
    kind: "no_show_reported",
    bookingId: "bk-7f3a",
    absent: "creator",
    note: "I waited in the room for 20 minutes and mailed at 15:10.",
    contestBy: "2027-04-01T17:00:00.000Z",
  },
  {
    ...read,
    eventId: "e14",
    kind: "no_show_contested",
    bookingId: "bk-7f3a",
    by: "u-ava",
    note: "My connection dropped; I rejoined at 15:12.",
  },
  {
    ...read,
    eventId: "e15",
    kind: "no_show_settled",
    bookingId: "bk-7f3a",
    absent: "expert",
    outcome: "expert_no_show",
    refundCents: 7_500,
    reason: "The expert joined 25 minutes late: half the price back.",
    by: "u-admin",
  },
  {
    ...read,
    eventId: "e16",
    kind: "message_sent",
    bookingId: "bk-7f3a",
    by: "u-ava",
    text: "Could you send the draft pricing page before we meet?",
  },
  { ...read, eventId: "e17", kind: "dispute_opened", bookingId: "bk-7f3a", amountCents: 15_000, reason: "product_not_received" },
  { ...read, eventId: "e18", kind: "dispute_closed", bookingId: "bk-7f3a", status: "lost", lostCents: 15_000 },
  { ...read, eventId: "e17", kind: "dispute_opened", bookingId: "bk-7f3a", amountCents: 15_000, reason: "product_not_received" },
  { ...read, eventId: "e18", kind: "dispute_closed", bookingId: "bk-7f3a", status: "lost", lostCents: 15_000 },
  {
    ...read,
    eventId: "e11",
    kind: "reschedule_withdrawn",
    bookingId: "bk-7f3a",
    from: "2027-03-30T15:00:00.000Z",
    to: "2027-04-01T16:00:00.000Z",
  },
];

/** One mail of each kind, the creator's where both get one. */
function everyKind(): Map<MailKind, OutgoingMail> {
  const account = { userId: "u-cole", to: "cole@example.com", firstName: "Cole", now };
  const all: OutgoingMail[] = [
    verificationMail({
      ...account,
      messageId: "v1",
      link: `${PUBLIC_URL}/verify-email?token=${signLink(TEST_JWT_SECRET, "verify_email", "u-cole", now)}`,
    }),
    passwordResetMail({
      ...account,
      messageId: "r1",
      link: `${PUBLIC_URL}/reset-password?token=${signLink(TEST_JWT_SECRET, "password_reset", "u-cole", now)}`,
    }),
    accountExistsMail({
      ...account,
      messageId: "x1",
      signInUrl: `${PUBLIC_URL}/login`,
      forgotPasswordUrl: `${PUBLIC_URL}/forgot-password`,
    }),
    ...facts.flatMap((f) => owedMails(f, state, env)),
    vettingMail(
      {
        eventId: "v9",
        at: now,
        version: 5,
        kind: "vetting",
        expertId: "u-cole",
        decision: "changes_requested",
        reason: "Please add a link to a recent episode you produced.",
        mayReapplyFrom: null,
      },
      { userId: "u-cole", email: "cole@example.com", firstName: "Cole", lastName: "Rivera", zone: "Europe/London" },
      PUBLIC_URL,
    ),
    supportRequestMail({
      messageId: "s1",
      to: "support@example.com",
      publicUrl: PUBLIC_URL,
      now,
      message: {
        name: "Cole Rivera",
        email: "cole@example.com",
        topic: "refund",
        message: "My refund for the 30 March session has not arrived.\nCould you look?",
      },
    }),
  ];
  const byKind = new Map<MailKind, OutgoingMail>();
  for (const m of all) if (!byKind.has(m.kind) || m.userId === "u-cole") byKind.set(m.kind, m);
  return byKind;
}

let browser: Browser;
beforeAll(async () => {
  browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
    args: [
      "--headless",
      "--no-sandbox",
      "--disable-gpu",
      "--disable-quic",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
    ],
  });
  await mkdir(ARTIFACTS, { recursive: true });
});
afterAll(async () => browser?.close());

describe("every mail template in Chromium", () => {
  const mails = everyKind();

  it("covers every kind of mail", () => {
    expect([...mails.keys()].sort()).toEqual([...MAIL_KINDS].sort());
  });

  for (const [kind, mail] of mails) {
    it(`${kind}: renders at desktop and phone width, one button to the text's link, no sideways scroll`, async () => {
      expect(mail.html).not.toMatch(/<(script|style|table|link)\b/i);
      expect(mail.html).not.toMatch(/\sclass=/);
      await writeFile(`${ARTIFACTS}${kind}.html`, mail.html);
      for (const [width, suffix] of [
        [680, ""],
        [375, "-phone"],
      ] as const) {
        const page = await browser.newPage({ viewport: { width, height: 800 } });
        await page.setContent(mail.html);
        const button = page.getByRole("link").first();
        const href = await button.getAttribute("href");
        expect(mail.text).toContain(`: ${href}`);
        expect(await button.isVisible()).toBe(true);
        // A string: the api has no DOM types, the page does.
        expect(await page.evaluate<number>("document.documentElement.scrollWidth")).toBeLessThanOrEqual(width);
        await page.screenshot({ path: `${ARTIFACTS}${kind}${suffix}.png`, fullPage: true });
        await page.close();
      }
    });
  }
});
