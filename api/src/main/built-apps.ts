import { existsSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import fastifyStatic from "@fastify/static";
import type { FastifyInstance, FastifyReply } from "fastify";

// The web app at / and the admin console at /admin/, as `npm run build` left them: every text
// file beside its .br and .gz (scripts/precompress.mjs), sent compressed to a browser that accepts
// it. Vite names assets by their content's hash, so an asset never changes under its name: a
// year, immutable. index.html names the current assets, so it is revalidated on every load.

const repoRoot = fileURLToPath(new URL("../../../", import.meta.url));

export type BuiltApps = { web: string; admin: string };

/** Where `npm run build` puts the web app and the admin console. */
export const BUILT_APPS: BuiltApps = { web: join(repoRoot, "web/dist"), admin: join(repoRoot, "admin/dist") };

/** The landing page rendered at build time, sent for `/`. */
export const LANDING_PAGE = "landing.html";

export const HASHED_ASSET_CACHE = "public, max-age=31536000, immutable";
export const PAGE_CACHE = "no-cache";

/** Vite's output: `assets/{name}-{hash}.{ext}`; anything else (index.html, favicon) may change under its name. */
const isHashedAsset = (path: string) => /[\\/]assets[\\/][^\\/]+-[\w-]{8,}\.\w+(\.(br|gz))?$/.test(path);

const staticOptions = {
  preCompressed: true,
  cacheControl: false,
  setHeaders: (reply: FastifyReply, path: string) => {
    void reply.header("cache-control", isHashedAsset(path) ? HASHED_ASSET_CACHE : PAGE_CACHE);
  },
} as const;

/**
 * Serve both apps when they have been built. Anything under /api is the API's: an unknown path
 * there gets the JSON 404, never the web app's page.
 */
export async function serveBuiltApps(app: FastifyInstance, dirs: BuiltApps = BUILT_APPS): Promise<void> {
  const { web, admin } = dirs;
  if (existsSync(admin)) {
    await app.register(fastifyStatic, { root: admin, prefix: "/admin/", decorateReply: false, ...staticOptions });
    app.get("/admin", (_request, reply) => reply.redirect("/admin/"));
  }
  if (existsSync(web)) {
    // `/` gets the prerendered landing page when the build wrote one (web/prerender-landing.ts):
    // it paints before the scripts arrive. Every other page starts from the empty index.html.
    const landing = existsSync(join(web, LANDING_PAGE)) ? LANDING_PAGE : "index.html";
    await app.register(fastifyStatic, { root: web, prefix: "/", wildcard: false, index: false, ...staticOptions });
    app.get("/", (_request, reply) => reply.sendFile(landing));
    // Client-side routes: any other GET outside /api gets the app's index.html.
    app.get("/*", (request, reply) => (isApiPath(request.url) ? reply.callNotFound() : reply.sendFile("index.html")));
  } else {
    app.get("/", (_request, reply) =>
      reply
        .type("text/html")
        .send(
          '<!doctype html><title>Expert sessions</title><h1>Expert sessions</h1><p>The API is running at <a href="/api/v1/experts">/api/v1</a>.</p>',
        ),
    );
  }
}

function isApiPath(url: string): boolean {
  const path = url.split("?", 1)[0]!;
  return path === "/api" || path.startsWith("/api/");
}
