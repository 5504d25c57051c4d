import { BookingStatus } from "@booking/contracts";

/** An actor as the event store records it. */
export type Actor = { userId: string; role: "creator" | "expert" | "admin" | "system" };

/** One entry of a booking's history, straight from the event store (GET /admin/bookings/{id}). */
export type TimelineEntry = { event_id: string; type: string; time: string; actor: Actor | null; version: number; position: string; data: Record<string, unknown> };

/** A booking of the `bookings` read model (GET /admin/bookings). */
export type Booking = {
  id: string;
  booking_id: string;
  expert_id: string;
  expert_user_id: string;
  creator_id: string;
  session_id: string;
  session_title: string;
  price_cents: number;
  length_minutes: number;
  scheduled_time: string;
  previous_time: string | null;
  held_until: string;
  status: BookingStatus;
  paid_cents: number;
  refund_due_cents: number;
  payment_state: "unpaid" | "paid" | "refund_due";
  prep_questions: string[] | null;
  prep_answers: string[] | null;
  info_request_note: string | null;
  notes: unknown;
  cancelled_by: string | null;
  cancel_reason: string | null;
  created_at: string;
  updated_at: string;
  stream_version: number;
  /** Only on the show page. */
  timeline?: TimelineEntry[];
};

export const bookingStatuses: readonly BookingStatus[] = BookingStatus.options;

export const statusLabels: Record<BookingStatus, string> = {
  pending: "Pending",
  time_proposed: "Time proposed",
  more_info_requested: "More info requested",
  confirmed: "Confirmed",
  completed: "Completed",
  cancelled: "Cancelled",
};

export const statusChoices = bookingStatuses.map((id) => ({ id, name: statusLabels[id] }));

export const paymentLabels: Record<Booking["payment_state"], string> = { unpaid: "Unpaid", paid: "Paid", refund_due: "Refund due" };
