// What other areas use of vetting/: they import it from here, never from its files (eslint.config.js).

export { vettingRoutes } from "./routes.ts";
export { applicationHistory, applicationReply, stepTime } from "./application-reply.ts";
export { expertStanding } from "./standing-reply.ts";
