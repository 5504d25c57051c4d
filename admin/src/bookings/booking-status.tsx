import { Chip, type ChipProps } from "@mui/material";
import { useRecordContext } from "react-admin";
import type { BookingStatus } from "@booking/contracts";
import { paymentLabels, statusLabels, type Booking } from "./booking-record.ts";

const statusColors: Record<BookingStatus, ChipProps["color"]> = {
  pending: "warning",
  time_proposed: "info",
  more_info_requested: "info",
  confirmed: "success",
  completed: "default",
  cancelled: "error",
  expert_no_show: "error",
  creator_no_show: "warning",
};

export function BookingStatusChip({ status }: { status: BookingStatus }) {
  return (
    <Chip
      size="small"
      label={statusLabels[status] ?? status}
      color={statusColors[status] ?? "default"}
      variant={status === "completed" ? "outlined" : "filled"}
    />
  );
}

/** The record's booking status as a coloured chip. */
export function BookingStatusField(_props: { label?: string; source?: string }) {
  const booking = useRecordContext<Booking>();
  return booking ? <BookingStatusChip status={booking.status} /> : null;
}

const paymentColors: Record<Booking["payment_state"], ChipProps["color"]> = {
  unpaid: "default",
  paid: "success",
  refund_due: "warning",
  partially_refunded: "info",
  refunded: "info",
};

/** Unpaid, paid, refund due, partly refunded (the rest still held) or refunded. */
export function PaymentStateField(_props: { label?: string; source?: string }) {
  const booking = useRecordContext<Booking>();
  if (!booking) return null;
  const color = paymentColors[booking.payment_state] ?? "default";
  return <Chip size="small" variant="outlined" color={color} label={paymentLabels[booking.payment_state] ?? booking.payment_state} />;
}
