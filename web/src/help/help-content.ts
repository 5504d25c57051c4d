import {
  APPROVED_BADGE_MEANING,
  DEFAULT_HOLD_MINUTES,
  EXPERT_STANDARDS,
  FULL_REFUND_HOURS_OPTIONS,
  REAPPLY_WAITING_DAYS,
  RESCHEDULE_HOURS_OPTIONS,
} from "@booking/contracts";

// The help page's copy (issue 27.3): how the marketplace works, in the order a creator meets it.

/** "24, 48 or 72": the contract's choices of hours, in words. */
const hoursList = (options: readonly number[]) => `${options.slice(0, -1).join(", ")} or ${options.at(-1)}`;

export const HOW_IT_WORKS = [
  {
    id: "booking",
    title: "Booking a session",
    paragraphs: [
      "Open an expert's profile, pick one of their sessions and choose a time. Times are shown in your own " +
        "timezone, and only times the expert has opened are offered.",
      `Choosing a time holds it for you for ${DEFAULT_HOLD_MINUTES} minutes while you pay; nobody else can ` +
        `take it meanwhile. If you do not pay in that time, the time is released.`,
      "After paying you answer the expert's preparation questions. Your request then goes to the expert, who " +
        "accepts it, asks you for more information or proposes another time. You see every change on your " +
        "dashboard and by mail.",
    ],
  },
  {
    id: "payment",
    title: "Paying",
    paragraphs: [
      "You pay the price shown on the session, by card, when you book. Nothing is added at checkout.",
      "Card payments are handled by our payment provider; we never see or keep your full card number.",
    ],
  },
  {
    id: "refunds",
    title: "Cancelling and refunds",
    paragraphs: [
      "If the expert declines or cancels, or we cancel a session, everything you paid goes back to your card.",
      `You may cancel a request the expert has not accepted yet and get everything back. Once accepted, a ` +
        `session cancelled early enough before its start is refunded in full; later than that it is not refunded.`,
      `Each expert chooses the cut-offs for each of their sessions: a full refund until ${hoursList(FULL_REFUND_HOURS_OPTIONS)} ` +
        `hours before the start, and asking to move it until ${hoursList(RESCHEDULE_HOURS_OPTIONS)} hours before. ` +
        "The session's cut-offs are shown before you pay, " +
        "and a booking keeps the terms it was made under: a later change to the session never changes a booking already made.",
      "Before you cancel, the cancel dialog shows exactly how much would be refunded. Refunds reach your card " +
        "within a few working days, depending on your bank.",
    ],
  },
  {
    id: "vetting",
    title: "How experts are vetted",
    paragraphs: [
      `Vetted means approved by our team, and only approved experts are listed and can be booked. The Verified ` +
        `check mark beside an expert's name says so: "${APPROVED_BADGE_MEANING}"`,
      "Every expert applies before creators can book them: their expertise and years of experience, links to " +
        "their work, what creators can expect from a session, and their agreement to our expert standards.",
      "An application goes from draft to submitted, then in review, then approved; our team answers within 2 " +
        "working days. Our team may ask for changes, which the expert makes and sends again. A rejected expert " +
        `may apply again after a waiting period of ${REAPPLY_WAITING_DAYS} days. An approved expert who does not ` +
        "keep the standards may be suspended: their new bookings are paused until our team reinstates them.",
      "Reviews on a profile come only from creators who completed a session with that expert.",
    ],
    /** The expert standards every approved expert agrees to. */
    list: { title: "The expert standards", items: EXPERT_STANDARDS },
  },
] as const;
