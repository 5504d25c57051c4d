import type { RoutePlugin } from "../http/route-plugin.ts";

// Placeholder: the payments routes are being written.
export const paymentsRoutes: RoutePlugin = async () => undefined;
