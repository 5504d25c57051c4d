// Write a .br and a .gz beside every text file of a built app, once, at build time: the server
// sends them as they are (no compression per request), best quality because it is paid once.
import { readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { brotliCompressSync, constants, gzipSync } from "node:zlib";

const TEXT = /\.(js|mjs|css|html|svg|json|txt|map|webmanifest|xml)$/;
/** Below this, compression saves less than the header it costs. */
const MIN_BYTES = 1024;

/** Compress every text file under `dir`; resolves to [{ file, bytes, br, gz }]. */
export function precompress(dir) {
  const written = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) {
      written.push(...precompress(path));
      continue;
    }
    if (!TEXT.test(entry.name) || statSync(path).size < MIN_BYTES) continue;
    const body = readFileSync(path);
    const br = brotliCompressSync(body, {
      params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: body.length },
    });
    const gz = gzipSync(body, { level: 9 });
    writeFileSync(`${path}.br`, br);
    writeFileSync(`${path}.gz`, gz);
    written.push({ file: path, bytes: body.length, br: br.length, gz: gz.length });
  }
  return written;
}
