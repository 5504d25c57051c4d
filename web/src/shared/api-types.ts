import type {
  AuthSessionReply,
  AuthUser as AuthUserReply,
  AvailabilityReply,
  BookingInExternalBusyReply,
  BookingInTimeOffReply,
  BookingReply,
  BookingStatus as BookingStatusValue,
  CalendarConnectionReply,
  CalendarConnectionsReply,
  CalendarFeedReply,
  ConversationReply,
  ExpertDetailReply,
  ExpertListItem as ExpertListItemReply,
  ExpertReview,
  MeReply,
  OwnExpertProfileReply,
  PaymentIntentReply as PaymentIntent,
  ScheduleReply,
  SessionNotesReply,
  SessionReply,
  SignupReply,
  UnreadMessagesReply,
  UnsubscribeReply,
  UserRole,
} from "@booking/contracts";

// The web app's names for the replies of /api/v1. Every shape is contracts' (the api's response
// schemas, checked on each reply); this file only names them as the pages speak of them.

export type Role = UserRole;
export type AuthUser = AuthUserReply;
/** Sign-in, refresh, and following a verification or reset link. */
export type AuthSession = AuthSessionReply;
/** POST /auth/signup: the account, unverified, and when its verification mail was queued (no session). */
export type SignUpReply = SignupReply;
/** GET /auth/me (and PUT /auth/me/preferences). */
export type Me = MeReply;
/** POST /mail/unsubscribe. */
export type Unsubscribed = UnsubscribeReply;

/** The experts listing's card (GET /experts, /experts/search). */
export type ExpertListItem = ExpertListItemReply;
/** GET /experts/me: the profile, or the empty default before the first save (PATCH answers the full profile). */
export type ExpertProfile = OwnExpertProfileReply;
export type Review = ExpertReview;
/** A bookable session (GET /sessions/{id}, an expert's sessions, the profile's). */
export type Session = SessionReply;
/** GET /experts/{slug}: the public profile with its sessions and reviews. */
export type ExpertDetail = ExpertDetailReply;

export type { Weekday, WeeklySlot } from "@booking/contracts";
/** GET /experts/{expertId}/schedule. */
export type Schedule = ScheduleReply;
/** GET /sessions/{id}/availability. */
export type Availability = AvailabilityReply;
/** A booking inside the expert's time off (GET /experts/{expertId}/time-off/affected-bookings). */
export type BookingInTimeOff = BookingInTimeOffReply;
/** GET /calendar/feed: the personal feed's address, for calendar apps (webcal:) and to copy (https:). */
export type CalendarFeed = CalendarFeedReply;
/** GET /experts/{expertId}/calendars: the expert's own calendars and the bookings inside their busy times (issue 32). */
export type CalendarConnections = CalendarConnectionsReply;
/** One connected calendar account (an iCal address or a CalDAV account), as POST, PATCH and sync answer it. */
export type CalendarConnection = CalendarConnectionReply;
/** A booking made before a busy time of a connected calendar appeared over it. */
export type BookingInExternalBusy = BookingInExternalBusyReply;

export type BookingStatus = BookingStatusValue;
/** GET /bookings/:id and the dashboards' lists. */
export type Booking = BookingReply;
/** GET /bookings/:id/notes. */
export type SessionNotes = SessionNotesReply;
/** POST /payments/intent. */
export type PaymentIntentReply = PaymentIntent;
/** GET /bookings/:id/messages (and what sending, reading and muting answer): a booking's conversation. */
export type Conversation = ConversationReply;
export type Message = Conversation["messages"][number];
/** GET /me/unread-messages. */
export type UnreadMessages = UnreadMessagesReply;
