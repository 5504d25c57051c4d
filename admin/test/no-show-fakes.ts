import type { AdminNoShowReply, NoShowReply } from "@booking/contracts";

// No-show reports (issue 31.1) as GET /admin/no-shows sends them, for the console's no-show tests: one contested
// (the queue), two open (one past its deadline), one settled by an admin. Deadlines are relative to when the
// tests run, so the list's "in N hours" and "overdue" read the same whenever they do.

export const DECIDER = "00000000-0000-4000-8000-0000000000a7";
export const CONTESTED = "00000000-0000-4000-8000-0000000000c1";
export const OPEN = "00000000-0000-4000-8000-0000000000c2";
export const OVERDUE = "00000000-0000-4000-8000-0000000000c3";
export const SETTLED = "00000000-0000-4000-8000-0000000000c4";

const HOUR = 3_600_000;
const at = (hoursFromNow: number) => new Date(Date.now() + hoursFromNow * HOUR).toISOString();

const openReport: NoShowReply = {
  absent: "expert",
  note: "Waited 20 minutes in the room; nobody came.",
  reported_at: at(-10),
  contest_by: at(38),
  contested: false,
  contest_note: null,
  contested_at: null,
  outcome: null,
  refund_cents: null,
  reason: null,
  decided_by: null,
  settled_at: null,
};

function row(id: string, title: string, report: Partial<NoShowReply>, more: Partial<AdminNoShowReply> = {}): AdminNoShowReply {
  const no_show = { ...openReport, ...report };
  return {
    id,
    booking_id: id,
    expert_id: "00000000-0000-4000-8000-0000000000e1",
    expert_user_id: "00000000-0000-4000-8000-0000000000e1",
    creator_id: "00000000-0000-4000-8000-0000000000d1",
    session_title: title,
    scheduled_time: at(-12),
    length_minutes: 60,
    status: "confirmed",
    state: no_show.outcome !== null ? "settled" : no_show.contested ? "contested" : "open",
    paid_cents: 5000,
    refund_due_cents: 0,
    currency: "USD",
    no_show,
    ...more,
  };
}

/** The expert says they were there: an admin decides. USD 50.00 paid, USD 10.00 already owed back. */
export const contestedReport = row(
  CONTESTED,
  "Thumbnail teardown",
  { contested: true, contest_note: "I was in the room; the creator used the wrong link.", contested_at: at(-2), contest_by: at(5) },
  { refund_due_cents: 1000 },
);

/** The expert reported the creator absent; the creator has 30 hours left to contest. */
export const openReportRow = row(OPEN, "Channel audit", { absent: "creator", note: "", contest_by: at(30.5) });

/** Not contested and past its deadline: the sweeper lets it stand on its next run. */
export const overdueReport = row(OVERDUE, "Sponsorship pricing", { contest_by: at(-1) });

/** Decided by an admin: upheld, half of EUR 50.00 refunded. */
export const settledReport = row(
  SETTLED,
  "Retention deep dive",
  {
    contested: true,
    contest_note: "My internet was down.",
    contested_at: at(-40),
    contest_by: at(-30),
    outcome: "expert_no_show",
    refund_cents: 2500,
    reason: "The room's log shows the expert never joined; half refunded as agreed.",
    decided_by: DECIDER,
    settled_at: at(-1),
  },
  { status: "expert_no_show", currency: "EUR" },
);

export const noShowRows: AdminNoShowReply[] = [settledReport, openReportRow, overdueReport, contestedReport];
