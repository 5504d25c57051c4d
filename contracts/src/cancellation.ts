import { z } from "zod";

/**
 * GET /bookings/{id}/cancellation: what cancelling now would give back to the one asking, as the
 * calendar's cancellation policy decides it (engine's refundOnCancel), so a page shows the exact
 * amount without restating the rule.
 */
export const CancellationReply = z.strictObject({
  /** Cents the creator gets back if the asker cancels now. */
  refund_cents: z.number().int().nonnegative(),
  /** What was paid and is not already owed back: the most any cancellation gives back. */
  paid_cents: z.number().int().nonnegative(),
  /** Until this instant a creator cancelling a confirmed booking gets everything back (FULL_REFUND_NOTICE_HOURS before the start). */
  full_refund_until: z.iso.datetime(),
});
export type CancellationReply = z.infer<typeof CancellationReply>;
