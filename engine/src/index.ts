export * from "./decider.ts";
export * from "./availability/availability.ts";
export * from "./calendar/calendar.ts";
export * from "./session/session.ts";
export * from "./expert/expert.ts";
export * from "./terms/terms.ts";
export * from "./review/review.ts";
