import { BookingStatus, type AdminBookingReply, type AdminBookingShowReply } from "@booking/contracts";

/** One entry of a booking's history, straight from the event store (GET /admin/bookings/{id}). */
export type { Actor, TimelineEntry } from "@booking/contracts";

/** A booking of the `bookings` read model (GET /admin/bookings; the show page adds its timeline). */
export type Booking = AdminBookingReply & { timeline?: AdminBookingShowReply["timeline"] };

export const bookingStatuses: readonly BookingStatus[] = BookingStatus.options;

export const statusLabels: Record<BookingStatus, string> = {
  pending: "Pending",
  time_proposed: "Time proposed",
  more_info_requested: "More info requested",
  confirmed: "Confirmed",
  completed: "Completed",
  cancelled: "Cancelled",
  expert_no_show: "Expert no-show",
  creator_no_show: "Creator no-show",
};

export const statusChoices = bookingStatuses.map((id) => ({ id, name: statusLabels[id] }));

export const paymentLabels: Record<Booking["payment_state"], string> = {
  unpaid: "Unpaid",
  paid: "Paid",
  refund_due: "Refund due",
  partially_refunded: "Partly refunded",
  refunded: "Refunded",
};

export const refundStateLabels: Record<Booking["refund_state"], string> = {
  none: "None owed",
  pending: "Pending",
  failed: "Failed, retrying",
  refunded: "Refunded",
};

/** An event type in words: BookingRequested → Booking requested. */
export const eventLabel = (type: string) => type.replace(/(?<=[a-z])(?=[A-Z])/g, " ").replace(/(?<= )[A-Z]/g, (c) => c.toLowerCase());
