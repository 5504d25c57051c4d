import type { Projection } from "../projection.ts";
import { bookingEventsProjection } from "./booking-events.ts";
import { bookingsProjection } from "./bookings.ts";
import { conversationReadersProjection, messagesProjection } from "./conversations.ts";
import { earningsProjection } from "./earnings.ts";
import { expertsProjection } from "./experts.ts";
import { ledgerProjection } from "./ledger.ts";
import { reviewsProjection } from "./reviews.ts";
import { schedulesProjection } from "./schedules.ts";
import { sessionsProjection } from "./sessions.ts";
import { termsAcceptancesProjection } from "./terms-acceptances.ts";
import { usersProjection } from "./users.ts";

export const allProjections: readonly Projection[] = [
  usersProjection,
  expertsProjection,
  sessionsProjection,
  schedulesProjection,
  bookingsProjection,
  bookingEventsProjection,
  termsAcceptancesProjection,
  earningsProjection,
  reviewsProjection,
  ledgerProjection,
  messagesProjection,
  conversationReadersProjection,
];

export function projectionNamed(name: string): Projection | undefined {
  return allProjections.find((p) => p.name === name);
}
