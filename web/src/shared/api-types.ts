import type { AvailabilityReply, BookingReply, ExpertDetailReply, ExpertListItem as ExpertListItemReply, OwnExpertProfileReply, ScheduleReply, SessionReply } from "@booking/contracts";

// Reply shapes of /api/v1 as the web app reads them: those contracts declares (the api's response
// schemas) are inferred from there, never re-declared; the rest follow api/src/auth/bodies.ts.

export type Role = "creator" | "expert" | "admin";

export type AuthUser = { id: string; email: string; role: Role; first_name: string | null };

export type AuthSession = {
  access_token: string;
  refresh_token: string;
  expires_in: number;
  /** Seconds since the epoch. */
  expires_at: number;
  token_type: "bearer";
  user: AuthUser;
};

export type Me = {
  id: string;
  email: string;
  role: Role;
  first_name: string | null;
  last_name: string | null;
  expert_id: string | null;
  terms_accepted: boolean;
};

/** The experts listing's card (GET /experts, /experts/search). */
export type ExpertListItem = ExpertListItemReply;

/** GET /experts/me: the profile, or the empty default before the first save (PATCH answers the full profile). */
export type ExpertProfile = OwnExpertProfileReply;

export type Review = { id: string; rating: number; review: string; created_at: string; creator: { first_name: string; last_name: string; title?: string } };

/** A bookable session (GET /sessions/{id}, an expert's sessions, the profile's). */
export type Session = SessionReply;

/** GET /experts/{slug}: the public profile with its sessions and reviews. */
export type ExpertDetail = ExpertDetailReply;

export type { Weekday, WeeklySlot } from "@booking/contracts";
/** GET /experts/{expertId}/schedule. */
export type Schedule = ScheduleReply;

/** GET /sessions/{id}/availability. */
export type Availability = AvailabilityReply;

export type BookingStatus = "pending" | "time_proposed" | "more_info_requested" | "confirmed" | "completed" | "cancelled";

/** GET /bookings/:id and the dashboards' lists (the api sends it through this schema). */
export type Booking = BookingReply;

export type SessionNotes = { booking_id: string; summary: string; recap: string; takeaways: string[]; suggested_actions: string[] };

export type PaymentIntentReply = { clientSecret: string; paymentId: string; amount: number; publishableKey: string | null };
