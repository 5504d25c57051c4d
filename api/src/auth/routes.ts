import type { RoutePlugin } from "../http/route-plugin.ts";

// Placeholder: the auth routes are being written.
export const authRoutes: RoutePlugin = async () => undefined;
