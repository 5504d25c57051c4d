import type { RoutePlugin } from "../http/route-plugin.ts";

// Placeholder: the admin routes are being written.
export const adminRoutes: RoutePlugin = async () => undefined;
