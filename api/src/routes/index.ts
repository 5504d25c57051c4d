import type { RoutePlugin } from "../http/route-plugin.ts";
import { bookingRoutes } from "./bookings.ts";
import { expertRoutes } from "./experts.ts";
import { healthRoutes } from "./health.ts";
import { proposableTimesRoutes } from "./proposable-times.ts";
import { sessionRoutes } from "./sessions.ts";
import { streamRoutes } from "./stream.ts";
import { termsRoutes } from "./terms.ts";

export const routes: RoutePlugin[] = [healthRoutes, termsRoutes, expertRoutes, sessionRoutes, bookingRoutes, proposableTimesRoutes, streamRoutes];
