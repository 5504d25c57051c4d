// What other areas use of disputes/: they import it from here, never from its files (eslint.config.js).

export { disputeRoutes } from "./routes.ts";
export { stripeDisputeWebhook } from "./stripe-webhook.ts";
