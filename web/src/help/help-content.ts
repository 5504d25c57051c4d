import { FULL_REFUND_NOTICE_HOURS, DEFAULT_HOLD_MINUTES } from "@booking/contracts";

// The help page's copy (issue 27.3): how the marketplace works, in the order a creator meets it.

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
        `session cancelled at least ${FULL_REFUND_NOTICE_HOURS} hours before its start is refunded in full; ` +
        `later than that it is not refunded.`,
      "Before you cancel, the cancel dialog shows exactly how much would be refunded. Refunds reach your card " +
        "within a few working days, depending on your bank.",
    ],
  },
  {
    id: "vetting",
    title: "How experts are vetted",
    paragraphs: [
      "Experts marked Verified have been reviewed by our team: who they are, the work and clients they name on " +
        "their profile, and that they know the creator economy.",
      "Reviews on a profile come only from creators who completed a session with that expert.",
    ],
  },
] as const;
