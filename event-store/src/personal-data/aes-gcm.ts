import { createCipheriv, createDecipheriv, createSecretKey, randomBytes, type KeyObject } from "node:crypto";

// AES-256-GCM as both seals use it (a person's data key sealing a field, the master key wrapping a data key): a fresh
// 96-bit IV per seal, a 128-bit tag, and additional data that binds the sealed bytes to where they belong, so that a
// changed byte or a sealed value moved elsewhere fails to open. Parts are base64url, joined as `<iv>.<tag>.<body>`.

export const KEY_BYTES = 32;
const IV_BYTES = 12;
const TAG_BYTES = 16;

/** `<iv>.<tag>.<body>`: 16 and 22 base64url characters, then the ciphertext (empty for empty plaintext). */
export const SEALED_PARTS = "[A-Za-z0-9_-]{16}\\.[A-Za-z0-9_-]{22}\\.[A-Za-z0-9_-]*";

// Every personal field of every event read or written goes through here, so two costs of Node's crypto are paid once
// rather than per call: a key handed to createCipheriv as bytes is imported anew each time (a KeyObject made once per
// key Buffer is not: about half the cost of a seal), and each randomBytes call has a fixed overhead (IVs are cut from a
// block drawn at once; each is still fresh from the CSPRNG and used once).

const keyObjects = new WeakMap<Buffer, KeyObject>();
function keyObjectOf(key: Buffer): KeyObject {
  let made = keyObjects.get(key);
  if (!made) keyObjects.set(key, (made = createSecretKey(key)));
  return made;
}

/** Random bytes cut from a block drawn at once, as IVs are: `bytes` fresh from the CSPRNG, each used once. */
export function freshRandom(bytes: number): Buffer {
  if (randomAt + bytes > randoms.length) {
    randoms = randomBytes(Math.max(bytes, RANDOM_BLOCK));
    randomAt = 0;
  }
  randomAt += bytes;
  // A copy: a key must not share memory with the block (a key Buffer is the key of its KeyObject in a WeakMap).
  return Buffer.from(randoms.subarray(randomAt - bytes, randomAt));
}
const RANDOM_BLOCK = 32 * 256;
let randoms = Buffer.alloc(0);
let randomAt = 0;

const IV_BLOCK = IV_BYTES * 1024;
let ivs = Buffer.alloc(0);
let ivAt = 0;
function freshIv(): Buffer {
  if (ivAt + IV_BYTES > ivs.length) {
    ivs = randomBytes(IV_BLOCK);
    ivAt = 0;
  }
  ivAt += IV_BYTES;
  return ivs.subarray(ivAt - IV_BYTES, ivAt);
}

export function sealBytes(key: Buffer, plain: Buffer, additionalData: string): string {
  if (key.length !== KEY_BYTES) throw new Error(`An AES-256-GCM key is ${KEY_BYTES} bytes, not ${key.length}`);
  const iv = freshIv();
  const cipher = createCipheriv("aes-256-gcm", keyObjectOf(key), iv, { authTagLength: TAG_BYTES });
  cipher.setAAD(Buffer.from(additionalData, "utf8"));
  // GCM is a stream mode: `final` adds no bytes, so the body is `update`'s alone (no concatenation).
  const body = cipher.update(plain);
  cipher.final();
  return `${iv.toString("base64url")}.${cipher.getAuthTag().toString("base64url")}.${body.toString("base64url")}`;
}

/** The plaintext, or null when the sealed value does not open under this key and additional data (altered or moved). */
export function openBytes(key: Buffer, sealed: string, additionalData: string): Buffer | null {
  const [iv, tag, body] = sealed.split(".");
  if (iv === undefined || tag === undefined || body === undefined) return null;
  try {
    const decipher = createDecipheriv("aes-256-gcm", keyObjectOf(key), Buffer.from(iv, "base64url"), { authTagLength: TAG_BYTES });
    decipher.setAAD(Buffer.from(additionalData, "utf8"));
    decipher.setAuthTag(Buffer.from(tag, "base64url"));
    return Buffer.concat([decipher.update(Buffer.from(body, "base64url")), decipher.final()]);
  } catch {
    return null;
  }
}
