import type { Actor, BookingStatus, CalendarCommand, CalendarEvent } from "@booking/contracts";

export const NOW = "2026-03-02T08:00:00.000Z"; // a Monday; London is on GMT
export const EXPERT_ID = "ex1";
export const EXPERT: Actor = { userId: "ux1", role: "expert" };
export const OTHER_EXPERT: Actor = { userId: "ux2", role: "expert" };
export const CREATOR: Actor = { userId: "c1", role: "creator" };
export const OTHER_CREATOR: Actor = { userId: "c2", role: "creator" };
export const ADMIN: Actor = { userId: "a1", role: "admin" };
export const SYSTEM: Actor = { userId: "payments", role: "system" };
export const BOOKING = "b1";
export const T1 = "2026-03-03T10:00:00.000Z"; // Tuesday 10:00 London
export const PRICE = 15_000;
export const HOLD_MINUTES = 15;

export const session = {
  sessionId: "s1",
  expertId: EXPERT_ID,
  title: "Growth strategy",
  lengthMinutes: 60 as const,
  priceCents: PRICE,
  published: true,
  prepQuestions: ["What is your goal?", "Where are you now?", "What blocks you?"],
};

export const scheduleSet: Extract<CalendarEvent, { type: "ScheduleSet" }> = {
  type: "ScheduleSet",
  data: {
    expertId: EXPERT_ID,
    timezone: "Europe/London",
    slots: (["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"] as const).map((weekday) => ({
      weekday,
      start_local: "09:00",
      end_local: "17:00",
    })),
  },
};

export const requested = (bookingId = BOOKING, scheduledTime = T1, creatorId = CREATOR.userId): CalendarEvent => ({
  type: "BookingRequested",
  data: {
    bookingId,
    expertId: EXPERT_ID,
    expertUserId: EXPERT.userId,
    creatorId,
    sessionId: session.sessionId,
    sessionTitle: session.title,
    lengthMinutes: session.lengthMinutes,
    priceCents: PRICE,
    prepQuestions: session.prepQuestions,
    scheduledTime,
    heldUntil: "2026-03-02T08:15:00.000Z",
  },
});

export const paid = (bookingId = BOOKING, paymentId = "pi_1"): CalendarEvent => ({
  type: "PaymentSucceeded",
  data: { bookingId, paymentId, amountCents: PRICE, provider: "test" },
});

export type StatusName = BookingStatus;

/** Events that leave booking b1 in `status`, paid (the default) or not. */
export function bookingIn(status: BookingStatus, isPaid = true): CalendarEvent[] {
  const start = [scheduleSet, requested(), ...(isPaid ? [paid()] : [])];
  const confirmed: CalendarEvent = { type: "Confirmed", data: { bookingId: BOOKING, by: "expert" } };
  switch (status) {
    case "pending":
      return start;
    case "more_info_requested":
      return [...start, { type: "InfoRequested", data: { bookingId: BOOKING, note: "Tell me more" } }];
    case "time_proposed":
      return [
        ...start,
        { type: "TimeProposed", data: { bookingId: BOOKING, scheduledTime: "2026-03-04T09:00:00.000Z", previousTime: T1 } },
      ];
    case "confirmed":
      return [...start, confirmed];
    case "completed":
      return [...start, confirmed, { type: "Completed", data: { bookingId: BOOKING } }];
    case "cancelled":
      return [...start, { type: "Cancelled", data: { bookingId: BOOKING, by: "creator", reason: "", refundCents: isPaid ? PRICE : 0 } }];
    case "expert_no_show":
    case "creator_no_show": {
      const absent = status === "expert_no_show" ? "expert" : "creator";
      const reported: CalendarEvent = {
        type: "NoShowReported",
        data: { bookingId: BOOKING, absent, by: absent === "expert" ? CREATOR.userId : EXPERT.userId, note: "", contestBy: T1 },
      };
      const refundCents = absent === "expert" && isPaid ? PRICE : 0;
      const settled: CalendarEvent = {
        type: "NoShowSettled",
        data: { bookingId: BOOKING, absent, outcome: status, refundCents, by: "system", reason: "uncontested" },
      };
      const refund: CalendarEvent[] =
        refundCents > 0
          ? [{ type: "RefundDue", data: { bookingId: BOOKING, paymentId: "pi_1", amountCents: refundCents, reason: "no_show" } }]
          : [];
      return [...start, confirmed, reported, settled, ...refund];
    }
  }
}

const on = { expertId: EXPERT_ID, bookingId: BOOKING };
export const commands = {
  recordPayment: (paymentId = "pi_2"): CalendarCommand => ({
    type: "RecordPayment",
    ...on,
    actor: SYSTEM,
    paymentId,
    amountCents: PRICE,
    provider: "test",
  }),
  submitPrep: (actor: Actor = CREATOR): CalendarCommand => ({
    type: "SubmitPrep",
    ...on,
    actor,
    answers: ["Grow", "Stuck at 10k", "Time"],
  }),
  requestInfo: (actor: Actor = EXPERT): CalendarCommand => ({ type: "RequestInfo", ...on, actor, note: "What niche are you in?" }),
  proposeTime: (actor: Actor = EXPERT, scheduledTime = "2026-03-05T14:30:00.000Z"): CalendarCommand => ({
    type: "ProposeTime",
    ...on,
    actor,
    scheduledTime,
  }),
  confirm: (actor: Actor = EXPERT): CalendarCommand => ({ type: "ConfirmBooking", ...on, actor }),
  cancel: (actor: Actor = CREATOR): CalendarCommand => ({ type: "CancelBooking", ...on, actor, reason: "Plans changed" }),
  expireHold: (actor: Actor = SYSTEM): CalendarCommand => ({ type: "ExpireHold", ...on, actor }),
  complete: (actor: Actor = EXPERT): CalendarCommand => ({ type: "CompleteBooking", ...on, actor }),
  addNotes: (actor: Actor = EXPERT): CalendarCommand => ({
    type: "AddNotes",
    ...on,
    actor,
    notes: { summary: "Good call", recap: "", takeaways: ["Post daily"], suggestedActions: [] },
  }),
};

export const requestBooking = (over: Partial<Extract<CalendarCommand, { type: "RequestBooking" }>> = {}): CalendarCommand => ({
  type: "RequestBooking",
  expertId: EXPERT_ID,
  bookingId: "b2",
  actor: CREATOR,
  scheduledTime: "2026-03-04T13:00:00.000Z",
  session,
  expertUserId: EXPERT.userId,
  expertVetting: "approved",
  creatorAcceptedTerms: true,
  creatorBookings: [],
  holdMinutes: HOLD_MINUTES,
  ...over,
});
