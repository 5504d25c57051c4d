// Names a snapshot leaves out (closed bookings, answered idempotency keys), kept as a fixed-size
// Bloom filter: "no" is certain, so a command about anything else is decided on the snapshot;
// "maybe" sends the command handler to the whole stream, which is always right, only slower.
// 128 KiB and 7 hashes: a wrong "maybe" for about 1 name in 7,000 at 50,000 names left out, 1 in
// 100 at 110,000 (64 KiB and 5 hashes gave 1 in 125 at 50,000: a cold booking request in the bench
// then folded the whole stream, 8 s). It costs about 1 ms of a cold load.

const BYTES = 131_072;
const BITS = BYTES * 8;
const HASHES = 7;

export type LeftOut = { readonly bits: Uint8Array; readonly count: number };

export const nothingLeftOut = (): LeftOut => ({ bits: new Uint8Array(BYTES), count: 0 });

/** FNV-1a with two seeds: the positions are h1 + i * h2 (double hashing). */
function positions(name: string): number[] {
  let h1 = 0x811c9dc5;
  let h2 = 0x01000193 ^ 0x9747b28c;
  for (let i = 0; i < name.length; i++) {
    const c = name.charCodeAt(i);
    h1 = Math.imul(h1 ^ c, 0x01000193);
    h2 = Math.imul(h2 ^ c, 0x5bd1e995);
  }
  h2 |= 1;
  return Array.from({ length: HASHES }, (_, i) => ((h1 + Math.imul(i, h2)) >>> 0) % BITS);
}

/** A new filter with `names` added (the one given is not changed). */
export function leaveOut(f: LeftOut, names: Iterable<string>): LeftOut {
  const bits = new Uint8Array(f.bits);
  let count = f.count;
  for (const name of names) {
    for (const p of positions(name)) bits[p >> 3]! |= 1 << (p & 7);
    count++;
  }
  return { bits, count };
}

export function mayBeLeftOut(f: LeftOut, name: string): boolean {
  return positions(name).every((p) => (f.bits[p >> 3]! & (1 << (p & 7))) !== 0);
}

/** Node's Buffer when there is one: its base64 is native, about ten times atob's and a loop's speed on a cold load. */
const nodeBuffer = (
  globalThis as { Buffer?: { from(data: Uint8Array | string, encoding?: "base64"): Uint8Array & { toString(encoding: "base64"): string } } }
).Buffer;

/** As JSON: the bits in base64 (atob/btoa where there is no Buffer: the engine runs in browsers too). */
export function encodeLeftOut(f: LeftOut): { bits: string; count: number } {
  if (nodeBuffer) return { bits: nodeBuffer.from(f.bits).toString("base64"), count: f.count };
  let text = "";
  for (let i = 0; i < f.bits.length; i += 8192) text += String.fromCharCode(...f.bits.subarray(i, i + 8192));
  return { bits: btoa(text), count: f.count };
}

export function decodeLeftOut(x: { bits: string; count: number }): LeftOut {
  if (nodeBuffer) {
    const bits = new Uint8Array(nodeBuffer.from(x.bits, "base64"));
    if (bits.length !== BYTES) throw new Error(`A left-out filter of ${bits.length} bytes, not ${BYTES}`);
    return { bits, count: x.count };
  }
  const text = atob(x.bits);
  if (text.length !== BYTES) throw new Error(`A left-out filter of ${text.length} bytes, not ${BYTES}`);
  const bits = new Uint8Array(BYTES);
  for (let i = 0; i < BYTES; i++) bits[i] = text.charCodeAt(i);
  return { bits, count: x.count };
}
