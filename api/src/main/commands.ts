import type {
  CalendarCommand,
  CalendarEvent,
  ExpertCommand,
  ExpertEvent,
  SessionCommand,
  SessionEvent,
  TermsCommand,
  TermsEvent,
} from "@booking/contracts";
import type { ReviewCommand, ReviewEvent } from "@booking/contracts";
import type { PayoutCommand, PayoutEvent } from "@booking/contracts";
import type { ConversationCommand, ConversationEvent } from "@booking/contracts";
import {
  calendarDecider,
  expertDecider,
  sessionDecider,
  termsDecider,
  type CalendarState,
  type ExpertState,
  type SessionState,
  type TermsState,
} from "@booking/engine";
import { reviewDecider, type ReviewState } from "@booking/engine";
import { payoutDecider, type PayoutState } from "@booking/engine";
import { conversationDecider, type ConversationState } from "@booking/engine";
import type { CommandHandler, EventStore } from "@booking/event-store";
// The handlers count their decisions for /metrics (issue 35.4) and trace each command and append (issue 35.3); the
// metrics and tracing areas own how.
import { TracedCommandHandler } from "../tracing/index.ts";

// Where a command goes: each handler pairs one of the engine's pure deciders with the event store
// (@booking/event-store: the port its streams are read from and appended to, and the handler that
// loads, decides and appends). A route names the handler type it sends to, so a booking reads by
// imports alone: ../bookings/routes.ts -> CalendarCommands here -> engine's calendarDecider (the
// rules) over EventStore (where the expert's calendar stream lives). context.ts builds them once
// per process; each handler keeps its own stream cache and per-stream queue.

/** Bookings and schedules on an expert's calendar stream, decided by `calendarDecider`. */
export type CalendarCommands = CommandHandler<CalendarCommand, CalendarEvent, CalendarState>;
/** Session definitions, decided by `sessionDecider`. */
export type SessionCommands = CommandHandler<SessionCommand, SessionEvent, SessionState>;
/** Expert profiles and vetting, decided by `expertDecider`. */
export type ExpertCommands = CommandHandler<ExpertCommand, ExpertEvent, ExpertState>;
/** A user's terms acceptances, decided by `termsDecider`. */
export type TermsCommands = CommandHandler<TermsCommand, TermsEvent, TermsState>;
/** A booking's review, its reply and its hiding, decided by `reviewDecider`. */
export type ReviewCommands = CommandHandler<ReviewCommand, ReviewEvent, ReviewState>;
/** An expert's payout account, hold, released earnings, transfers and payouts, decided by `payoutDecider`. */
export type PayoutCommands = CommandHandler<PayoutCommand, PayoutEvent, PayoutState>;

/** A booking's conversation, decided by `conversationDecider` (issue 31.3). */
export type ConversationCommands = CommandHandler<ConversationCommand, ConversationEvent, ConversationState>;

export type Commands = {
  calendar: CalendarCommands;
  sessions: SessionCommands;
  experts: ExpertCommands;
  terms: TermsCommands;
  reviews: ReviewCommands;
  payouts: PayoutCommands;
  conversations: ConversationCommands;
};

/** One handler per decider over one store, deciding at the clock's time. */
export function commandHandlers(store: EventStore, clock: () => string): Commands {
  const options = { clock };
  return {
    calendar: new TracedCommandHandler("calendar", store, calendarDecider, options),
    sessions: new TracedCommandHandler("sessions", store, sessionDecider, options),
    experts: new TracedCommandHandler("experts", store, expertDecider, options),
    terms: new TracedCommandHandler("terms", store, termsDecider, options),
    reviews: new TracedCommandHandler("reviews", store, reviewDecider, options),
    payouts: new TracedCommandHandler("payouts", store, payoutDecider, options),
    conversations: new TracedCommandHandler("conversations", store, conversationDecider, options),
  };
}
