import type { Booking, BookingStatus } from "../shared/api-types.ts";

// Badges that tell the truth (the spec showed a cancelled booking as "Confirmed").

type Badge = { label: string; color: "default" | "primary" | "secondary" | "success" | "warning" | "error" | "info" };

const creatorBadges: Record<BookingStatus, Badge> = {
  pending: { label: "Pending", color: "warning" },
  time_proposed: { label: "Time proposed", color: "info" },
  more_info_requested: { label: "Needs info", color: "warning" },
  confirmed: { label: "Confirmed", color: "success" },
  completed: { label: "Complete", color: "secondary" },
  cancelled: { label: "Cancelled", color: "error" },
  expert_no_show: { label: "Expert didn't show", color: "error" },
  creator_no_show: { label: "Missed", color: "error" },
};

const expertBadges: Record<BookingStatus, Badge> = {
  ...creatorBadges,
  pending: { label: "New", color: "primary" },
  more_info_requested: { label: "Info requested", color: "warning" },
  expert_no_show: { label: "Missed", color: "error" },
  creator_no_show: { label: "Creator didn't show", color: "error" },
};

export function bookingBadge(status: BookingStatus, viewer: "creator" | "expert"): Badge {
  return (viewer === "creator" ? creatorBadges : expertBadges)[status] ?? { label: status, color: "default" };
}

export const prepAnswered = (b: Pick<Booking, "prep_response_1" | "prep_response_2" | "prep_response_3">) =>
  !!(b.prep_response_1 && b.prep_response_2 && b.prep_response_3);
