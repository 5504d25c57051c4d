// The bookings read model's queries live with it (projections/src/read-models/bookings-queries.ts);
// routes that still import them from here get the same functions.
export { bookedPeriods, creatorBookingFacts, findBooking, bookingsOfCreator, bookingsOfExpertUser } from "@booking/projections";
