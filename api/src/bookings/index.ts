// What other areas use of bookings/: they import it from here, never from its files (eslint.config.js).
// Written by issue 28's layout script from the imports of the day; add an export when another area needs one.

export { CreatorBookingLock } from "./creator-booking-lock.ts";
export { creatorWritesMigrations } from "./creator-writes-table.ts";
export { newMeetingRoom } from "./meeting-room.ts";
export { SweepGate, sweepBookings, sweepEvery } from "./booking-sweep.ts";
export { startCompletionSweeper } from "./completion-sweeper.ts";
export { startHoldSweeper } from "./hold-sweeper.ts";
export { cancellationRoutes } from "./cancellation-routes.ts";
export { bookingFor, bookingRoutes, replyAsOf, runOnBooking, type BookingRouteDeps, type SignedIn } from "./routes.ts";
export { rescheduleRoutes } from "./reschedule-routes.ts";
