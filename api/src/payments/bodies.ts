import { z } from "zod";
import { Id } from "@booking/contracts";

// Bodies of the payments routes. Strict: an unknown field is a 400, not silently dropped.

/** POST /stripe/test-intent, as the spec names it. `amount` (cents) is only checked: the server charges the booking's price. */
export const TestIntentBody = z.strictObject({
  bookingId: Id,
  amount: z.number().int().nonnegative().optional(),
});

/** POST /payments/test/confirm. The card number is judged by the route, so any string up to a sane length passes here. */
export const TestConfirmBody = z.strictObject({
  client_secret: z.string().min(1).max(255),
  card_number: z.string().max(64),
});

/** The part of a Stripe PaymentIntent's metadata that ties it to a booking (set by StripePaymentProvider). */
export const BookingMetadata = z.object({ bookingId: Id, expertId: Id });

/** What StripePaymentProvider puts on a refund's metadata: the booking and the owing event's id. */
export const RefundMetadata = BookingMetadata.extend({ refundKey: z.string().min(1).max(255) });
