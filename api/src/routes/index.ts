import type { RoutePlugin } from "../http/route-plugin.ts";
import { healthRoutes } from "./health.ts";
import { termsRoutes } from "./terms.ts";

export const routes: RoutePlugin[] = [healthRoutes, termsRoutes];
