// What other areas use of demo/: they import it from here, never from its files (eslint.config.js).
// Written by issue 28's layout script from the imports of the day; add an export when another area needs one.

export { portraitPng, uploadPortrait } from "./portrait.ts";
export { Timeline } from "./timeline.ts";
export { DEMO_PASSWORD, call, signUp } from "./accounts.ts";
export type { DemoAccount } from "./accounts.ts";
export { DEMO_CREATOR, FIRST_EXPERTS, MORE_EXPERTS, OTHER_CREATORS, PREP_QUESTIONS, WORKING_WEEK } from "./cast.ts";
export type { CreatorKey, DemoExpert, ExpertKey } from "./cast.ts";
export { planHistory } from "./history.ts";
export type { SeededExpert } from "./history.ts";
export { seedUpcoming } from "./upcoming.ts";
export { APPLICANTS, seedApplicants } from "./applicants.ts";
