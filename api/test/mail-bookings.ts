import { randomUUID } from "node:crypto";
import { comparePositions, type Actor, type CalendarCommand } from "@booking/contracts";
import { calendarStream } from "@booking/engine";
import { deliverDue } from "../src/mail/delivery.ts";
import { loadCheckpoint } from "../src/reactors/checkpoints.ts";
import { MailReactor, type MailReactorOptions } from "../src/mail/reactor.ts";
import { MailSender, smtpMessageId, type MailSenderOptions } from "../src/mail/sender.ts";
import { mailSettings, type MailSettings } from "../src/mail/settings.ts";
import { transportFor } from "../src/mail/transport.ts";
import { TEST_JWT_SECRET, type TestApi } from "./harness.ts";
import type { ArrivedMail, TestSmtp } from "./mail-smtp.ts";
import { waitFor } from "./processes.ts";

// People and bookings for the mail tests, written as the routes would write them: users with a
// zone (at sign-up or by preferences), an expert's calendar in a zone of its own, and each step
// of a booking as a calendar command. Plus the reactor and sender wired to a test SMTP server.

export const PUBLIC_URL = "https://sessions.example.com";

export type MailUser = { id: string; email: string; firstName: string; lastName: string };

/** A user as sign-up makes one; `timezone` as the browser reported it (absent: never given). */
export async function registered(
  api: TestApi,
  role: "creator" | "expert",
  firstName: string,
  lastName: string,
  timezone?: string,
): Promise<MailUser> {
  const id = randomUUID();
  const email = `${firstName.toLowerCase()}-${id.slice(0, 8)}@example.com`;
  await api.ctx.store.append(
    `user-${id}`,
    [
      {
        type: "UserRegistered",
        data: { userId: id, email, role, firstName, lastName, ...(timezone && { timezone }) },
        metadata: { at: api.ctx.clock() },
      },
    ],
    "no_stream",
  );
  return { id, email, firstName, lastName };
}

/** What PUT /auth/me/preferences (or an unsubscribe) appends. */
export async function setPreferences(api: TestApi, user: MailUser, timezone: string, reminderMails: boolean): Promise<void> {
  await api.ctx.store.append(
    `user-${user.id}`,
    [{ type: "PreferencesSet", data: { userId: user.id, timezone, reminderMails }, metadata: { at: api.ctx.clock() } }],
    "any",
  );
}

const SYSTEM: Actor = { userId: "payments", role: "system" };
const ALL_DAY = (["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"] as const).map((weekday) => ({
  weekday,
  start_local: "00:00",
  end_local: "23:30",
}));

export type MailCalendar = ReturnType<typeof calendarOf>;

/** The expert's calendar, its schedule set in `timezone` (every day, all day). */
export async function expertCalendarIn(api: TestApi, expert: MailUser, timezone: string) {
  const calendar = calendarOf(api, expert);
  await calendar.run({ type: "SetSchedule", expertId: expert.id, actor: calendar.asExpert, schedule: { timezone, slots: ALL_DAY } });
  return calendar;
}

function calendarOf(api: TestApi, expert: MailUser) {
  const expertId = expert.id;
  const asExpert: Actor = { userId: expert.id, role: "expert" };
  const run = async (command: CalendarCommand) => {
    const r = await api.ctx.calendar.handle(calendarStream(expertId), command, { actor: command.actor });
    if (!r.ok) throw new Error(`${command.type}: ${r.refusal.code}`);
  };
  const on = (bookingId: string) => ({ expertId, bookingId });
  const asCreator = (creator: MailUser): Actor => ({ userId: creator.id, role: "creator" });
  return {
    expert,
    asExpert,
    run,
    /** A request (an unpaid hold) of `creator` at `at`, 60 minutes. */
    request: async (
      creator: MailUser,
      at: string,
      {
        priceCents = 15_000,
        title = "Pricing review",
        fullRefundHours,
      }: { priceCents?: number; title?: string; fullRefundHours?: number } = {},
    ) => {
      const bookingId = `bk-${randomUUID()}`;
      await run({
        type: "RequestBooking",
        ...on(bookingId),
        actor: asCreator(creator),
        scheduledTime: at,
        session: {
          sessionId: `s-${randomUUID()}`,
          expertId,
          title,
          lengthMinutes: 60,
          priceCents,
          published: true,
          prepQuestions: ["Goal?"],
          ...(fullRefundHours !== undefined && { fullRefundHours }),
        },
        expertUserId: expert.id,
        expertVetting: "approved",
        creatorAcceptedTerms: true,
        creatorBookings: [],
        holdMinutes: 15,
      });
      return bookingId;
    },
    pay: (bookingId: string, amountCents = 15_000) =>
      run({ type: "RecordPayment", ...on(bookingId), actor: SYSTEM, paymentId: `pi-${bookingId}`, amountCents, provider: "test" }),
    requestInfo: (bookingId: string, note: string) => run({ type: "RequestInfo", ...on(bookingId), actor: asExpert, note }),
    propose: (bookingId: string, at: string) => run({ type: "ProposeTime", ...on(bookingId), actor: asExpert, scheduledTime: at }),
    /** The expert confirms a request, or (given the creator) the creator accepts a proposed time. */
    confirm: (bookingId: string, creator?: MailUser) =>
      run({ type: "ConfirmBooking", ...on(bookingId), actor: creator ? asCreator(creator) : asExpert }),
    cancel: (bookingId: string, by: MailUser | "expert", reason = "") =>
      run({ type: "CancelBooking", ...on(bookingId), actor: by === "expert" ? asExpert : asCreator(by), reason }),
    refunded: (bookingId: string, refundKey: string, amountCents: number) =>
      run({
        type: "RecordRefund",
        ...on(bookingId),
        actor: { userId: "refunds", role: "system" },
        refundKey,
        refundId: `re-${refundKey}`,
        amountCents,
        provider: "test",
      }),
    notes: (bookingId: string) =>
      run({
        type: "AddNotes",
        ...on(bookingId),
        actor: asExpert,
        notes: { summary: "We went through your pricing page.", recap: "", takeaways: ["Raise the entry tier"], suggestedActions: [] },
      }),
  };
}

/** The mail reactor and sender over the test API's database, delivering to `smtpUrl` (null: the dev mailbox). */
export function testMail(
  api: TestApi,
  o: {
    smtpUrl: string | null;
    clock?: () => string;
    reactor?: MailReactorOptions;
    sender?: MailSenderOptions;
    meetingRoomUrlTemplate?: string;
  },
): { reactor: MailReactor; sender: MailSender; settings: MailSettings; deliver: () => Promise<void>; close: () => void } {
  const settings = mailSettings({
    publicUrl: PUBLIC_URL,
    from: "Expert Sessions <hello@sessions.example.com>",
    smtpUrl: o.smtpUrl ?? undefined,
  });
  const clock = o.clock ?? api.ctx.clock;
  const transport = transportFor(settings);
  const reactor = new MailReactor(
    {
      log: api.ctx.store,
      db: api.ctx.db,
      settings,
      linkSecret: TEST_JWT_SECRET,
      clock,
      meetingRoomUrlTemplate: o.meetingRoomUrlTemplate ?? null,
    },
    o.reactor,
  );
  const sender = new MailSender({ db: api.ctx.db, transport, settings, clock }, { warn: () => undefined, ...o.sender });
  return {
    reactor,
    sender,
    settings,
    /** Queue everything appended so far, then send what is due. */
    deliver: async () => {
      await readEverything(api, reactor);
      await deliverDue({ reactor, sender });
    },
    close: () => transport.close(),
  };
}

/** A mail that arrived over SMTP, with the outbox kind and recipient it was queued for. */
export type DeliveredMail = ArrivedMail & { kind: string; userId: string };

/**
 * Queue and send what is due, then the mails that arrived over SMTP since the last call, each
 * matched to its outbox row by Message-ID (a mail the outbox does not hold fails the test).
 */
export function smtpDelivery(
  api: TestApi,
  smtp: TestSmtp,
  mail: Pick<ReturnType<typeof testMail>, "deliver">,
): () => Promise<DeliveredMail[]> {
  return async () => {
    const before = smtp.arrived.length;
    await mail.deliver();
    const { rows } = await api.ctx.db.query<{ message_id: string; kind: string; user_id: string }>(
      "SELECT message_id, kind, user_id FROM mail_outbox",
    );
    const byHeader = new Map(rows.map((r) => [smtpMessageId(r.message_id, PUBLIC_URL), r]));
    return smtp.arrived.slice(before).map((m) => {
      const row = byHeader.get(m.messageId);
      if (!row) throw new Error(`A mail arrived that the outbox does not hold: ${m.messageId}`);
      return { ...m, kind: row.kind, userId: row.user_id };
    });
  };
}

/** "kind -> expert" / "kind -> creator": who a mail went to, by the parties' names in the test. */
export const sentTo = (parties: { expert: MailUser; creator: MailUser }) => (m: DeliveredMail) =>
  `${m.kind} -> ${m.userId === parties.expert.id ? "expert" : m.userId === parties.creator.id ? "creator" : m.userId}`;

/** Follow the log until `reactor` has read every event written so far. */
export async function readEverything(api: TestApi, reactor: MailReactor): Promise<void> {
  // The newest event written, visible or not: headPosition() is what a log reader can see now,
  // which lags while any older transaction (the projector's, say) is still open.
  const newest = (
    await api.ctx.db.query<{ commit: string; prepare: string }>(
      "SELECT transaction_id::text AS commit, global_position::text AS prepare FROM events ORDER BY transaction_id DESC, global_position DESC LIMIT 1",
    )
  ).rows[0];
  await waitFor("the mail reactor to read every event written", async () => {
    await reactor.catchUp();
    const reached = await loadCheckpoint(api.ctx.db, "mail_checkpoints", reactor.name);
    return (
      !newest || (reached !== null && comparePositions(reached, { commit: BigInt(newest.commit), prepare: BigInt(newest.prepare) }) >= 0)
    );
  });
}
