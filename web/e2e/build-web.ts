import { copyFile, mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "vite";

const root = fileURLToPath(new URL("..", import.meta.url));
const dist = join(root, "dist");

/** Build the app (into web/dist unless told otherwise), with VITE_* settings as build-time constants. */
export async function buildWebApp(settings: Record<string, string> = {}, outDir = dist): Promise<void> {
  const started = Date.now();
  // Vitest runs with NODE_ENV=test, which would give React's development build.
  const nodeEnv = process.env.NODE_ENV;
  process.env.NODE_ENV = "production";
  const define = Object.fromEntries(Object.entries(settings).map(([name, value]) => [`import.meta.env.${name}`, JSON.stringify(value)]));
  try {
    await build({
      root,
      configFile: `${root}vite.config.ts`,
      logLevel: "warn",
      mode: "production",
      define,
      build: { outDir, emptyOutDir: true },
    });
  } finally {
    process.env.NODE_ENV = nodeEnv;
  }
  console.log(
    `[web-e2e] built ${outDir === dist ? "web/dist" : outDir}${Object.keys(settings).length ? ` with ${JSON.stringify(settings)}` : ""} in ${Date.now() - started} ms`,
  );
}

const chunkName = (file: string) => /^(.*)-[\w-]{8}\.(js|css)$/.exec(file)?.slice(1).join(".") ?? file;
/** A chunk's text with the hashes taken out of the file names it imports: equal for the same chunk of two builds it is unchanged in. */
const unhashed = (text: string) => text.replace(/-[\w-]{8}\.(js|css)\b/g, ".$1");

/**
 * Serve a variant build without restarting the API: the API registers a route per file of the
 * served build when it starts (`served`: a product's own copy of web/dist, see startProduct's
 * `ownWebBuild`; never the shared web/dist, which other walks serve at the same time), so the
 * variant's chunks are copied over the served files of the same
 * chunk (same names, new content). Chunks import one another by hashed name, and a setting changes
 * the hashes of the chunks that import the one it is compiled into, so each copied chunk names its
 * imports by their served names.
 * The API serves hashed assets as immutable: a browser that loaded the app before must have its
 * cache cleared to see the variant.
 */
export async function serveVariant(settings: Record<string, string>, served: string): Promise<void> {
  const variant = await mkdtemp(join(tmpdir(), "web-variant-"));
  try {
    await buildWebApp(settings, variant);
    const servedChunks = new Map<string, string[]>();
    for (const f of await readdir(join(served, "assets"))) servedChunks.set(chunkName(f), [...(servedChunks.get(chunkName(f)) ?? []), f]);
    const renamed = new Map<string, string>();
    for (const file of await readdir(join(variant, "assets"))) {
      const named = servedChunks.get(chunkName(file)) ?? [];
      // Two modules of one name (web's money.ts and contracts' money.ts) make two chunks of that name: the one with the same text.
      let target = named.length === 1 ? named[0] : undefined;
      if (named.length > 1) {
        const text = unhashed(await readFile(join(variant, "assets", file), "utf8"));
        for (const f of named) if (unhashed(await readFile(join(served, "assets", f), "utf8")) === text) target = f;
      }
      if (!target) throw new Error(`the variant build has a chunk the served build lacks: ${file}`);
      renamed.set(file, target);
    }
    for (const [file, target] of renamed) {
      if (!/\.(js|css)$/.test(file)) {
        await copyFile(join(variant, "assets", file), join(served, "assets", target));
        continue;
      }
      let text = await readFile(join(variant, "assets", file), "utf8");
      for (const [from, to] of renamed) text = text.replaceAll(from, to);
      await writeFile(join(served, "assets", target), text);
    }
  } finally {
    await rm(variant, { recursive: true, force: true });
  }
}

/** Global setup: build the app once before the suite. */
export default async function buildWeb(): Promise<void> {
  await buildWebApp();
}
