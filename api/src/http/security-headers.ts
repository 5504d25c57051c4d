import fastifyHelmet from "@fastify/helmet";
import type { FastifyInstance } from "fastify";

// Headers a browser enforces, on every reply (HTML, JSON, media, the admin console).
//
// style-src keeps 'unsafe-inline': MUI's emotion writes its styles into <style> tags at run time.
// A nonce would need index.html templated per response (it is a static file) and handed to
// emotion's cache, and React's style props would still need it; injected CSS cannot run script,
// which script-src 'self' (no inline script, no eval) forbids.

const STRIPE_SCRIPTS = ["https://js.stripe.com", "https://*.js.stripe.com"];
const STRIPE_FRAMES = [...STRIPE_SCRIPTS, "https://hooks.stripe.com"];
const STRIPE_API = ["https://api.stripe.com"];

/** The Content-Security-Policy directives; Stripe's origins only when the web app may load Stripe Elements. */
export function cspDirectives(stripe: boolean): Record<string, string[]> {
  const self = "'self'";
  return {
    "default-src": [self],
    "base-uri": [self],
    "object-src": ["'none'"],
    "frame-ancestors": ["'none'"],
    "form-action": [self],
    "script-src": [self, ...(stripe ? STRIPE_SCRIPTS : [])],
    "script-src-attr": ["'none'"],
    "style-src": [self, "'unsafe-inline'"],
    // data: for the favicon and inline SVG, blob: for the profile image preview before upload.
    "img-src": [self, "data:", "blob:"],
    "font-src": [self, "data:"],
    "connect-src": [self, ...(stripe ? STRIPE_API : [])],
    "frame-src": stripe ? STRIPE_FRAMES : ["'none'"],
  };
}

/** A year, subdomains included: what helmet sends by default. */
export const HSTS = "max-age=31536000; includeSubDomains";

/**
 * `publicUrl`: the product's address as people reach it (PUBLIC_URL). Strict-Transport-Security
 * goes on a reply only when the request came over TLS (`request.protocol` reads X-Forwarded-Proto
 * from trusted proxies only) or the product is reached over https anyway: sent over plain HTTP it
 * would pin a browser to an https that a dev or intranet host does not serve.
 */
export async function installSecurityHeaders(app: FastifyInstance, options: { stripe: boolean; publicUrl: string }): Promise<void> {
  const servedOverHttps = new URL(options.publicUrl).protocol === "https:";
  await app.register(fastifyHelmet, {
    global: true,
    hsts: false,
    contentSecurityPolicy: { useDefaults: false, directives: cspDirectives(options.stripe) },
    frameguard: { action: "deny" },
    // Sends the origin (never the path, which may hold ids) to other sites, nothing over a downgrade.
    referrerPolicy: { policy: "strict-origin-when-cross-origin" },
  });
  // onRequest, like helmet's own headers: replies that end in an error or a 404 carry it too.
  app.addHook("onRequest", async (request, reply) => {
    if (servedOverHttps || request.protocol === "https") reply.header("strict-transport-security", HSTS);
  });
}
