import type { BookingReply } from "@booking/contracts";

// Reply shapes of /api/v1 as the web app reads them (api/src/queries/*.ts, api/src/auth/bodies.ts).

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

export type ExpertListItem = {
  id: string;
  user_id: string;
  slug: string;
  name: string;
  role: string;
  startingprice: number | null;
  rating: number | null;
  image: string | null;
  verified: boolean;
};

export type ExpertProfile = {
  id: string | null;
  user_id?: string;
  slug: string | null;
  first_name: string;
  last_name: string;
  title: string;
  bio: string | null;
  tags: string[];
  profile_image: string | null;
  verified: boolean;
  published: boolean;
};

export type Review = { id: string; rating: number; review: string; created_at: string; creator: { first_name: string; last_name: string; title?: string } };

export type Session = {
  id: string;
  expert_id: string;
  title: string;
  description: string;
  price: number;
  length_minutes: number;
  prep_question_1: string | null;
  prep_question_2: string | null;
  prep_question_3: string | null;
  prep_questions: string[];
  session_details: string;
  ideal_for: string[];
  status: string;
  expert: { id: string; name: string; first_name: string | null };
};

export type ExpertDetail = ExpertProfile & { sessions: Session[]; reviews: Review[]; prev_clients: unknown[] };

export type Weekday = "monday" | "tuesday" | "wednesday" | "thursday" | "friday" | "saturday" | "sunday";
export type WeeklySlot = { weekday: Weekday; start_local: string; end_local: string };
export type Schedule = { timezone: string | null; slots: WeeklySlot[]; booked: { scheduled_time: string; length_minutes: number }[] };

export type Availability = { timezone: string | null; length_minutes?: number; times: string[] };

export type BookingStatus = "pending" | "time_proposed" | "more_info_requested" | "confirmed" | "completed" | "cancelled";

/** GET /bookings/:id and the dashboards' lists (the api sends it through this schema). */
export type Booking = BookingReply;

export type SessionNotes = { booking_id: string; summary: string; recap: string; takeaways: string[]; suggested_actions: string[] };

export type PaymentIntentReply = { clientSecret: string; paymentId: string; amount: number; publishableKey: string | null };
