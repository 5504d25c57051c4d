import type { Booking, Session } from "../src/shared/api-types.ts";

/**
 * A booking as the API replies (contracts' BookingReply), for component tests: a paid, confirmed
 * 60-minute session in 2030, changed by `overrides`. The one place a test names every field, so
 * a column added to the reply is added here once.
 */
export function aBooking(overrides: Partial<Booking> = {}): Booking {
  return {
    id: "b1",
    status: "confirmed",
    scheduled_time: "2030-03-05T10:00:00.000Z",
    previous_time: null,
    length_minutes: 60,
    session_id: "s1",
    session_title: "Deck review",
    session: { title: "Deck review", price: 150, expertFirstName: "Maya" },
    expert_id: "ux1",
    creator_id: "c1",
    creator_name: "Cora Creator",
    expert_name: "Maya Lind",
    expert_image: null,
    profile_image: null,
    info_request_note: null,
    prep_question_1: "Goal?",
    prep_question_2: null,
    prep_question_3: null,
    prep_response_1: null,
    prep_response_2: null,
    prep_response_3: null,
    price: 150,
    payment_state: "paid",
    paid: true,
    held_until: "2030-03-01T10:15:00.000Z",
    has_notes: false,
    cancelled_by: null,
    cancel_reason: null,
    cancelled_at: null,
    confirmed_at: null,
    created_at: "2030-03-01T10:00:00.000Z",
    paid_cents: 15_000,
    refund_due_cents: 0,
    refunded_cents: 0,
    refund_state: "none",
    reschedule_to: null,
    reschedule_requested_at: null,
    reschedule_declined_to: null,
    reschedule_decline_reason: null,
    join_link: null,
    join_link_opens_at: null,
    join_link_source: null,
    instant_booking: false,
    currency: "USD",
    respond_by: null,
    no_show: null,
    full_refund_hours: 24,
    reschedule_hours: 24,
    ...overrides,
  };
}

/** A published session as GET /sessions/{id} replies, Maya Lind's "Deck review" of `aBooking`, changed by `overrides`. */
export function aSession(overrides: Partial<Session> = {}): Session {
  return {
    id: "s1",
    expert_id: "ux1",
    title: "Deck review",
    description: "",
    price: 150,
    length_minutes: 60,
    prep_question_1: "Goal?",
    prep_question_2: null,
    prep_question_3: null,
    prep_questions: ["Goal?"],
    session_details: "",
    ideal_for: [],
    status: "published",
    instant_booking: false,
    currency: "USD",
    full_refund_hours: 24,
    reschedule_hours: 24,
    expert: { id: "ux1", name: "Maya Lind", first_name: "Maya" },
    ...overrides,
  } as Session;
}
