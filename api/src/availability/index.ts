// What other areas use of availability/: they import it from here, never from its files (eslint.config.js).
// Written by issue 28's layout script from the imports of the day; add an export when another area needs one.

export { AvailabilityAnswers } from "./availability-answers.ts";
export { StreamStates } from "./stream-states.ts";
export { proposableTimesRoutes } from "./proposable-times-routes.ts";
