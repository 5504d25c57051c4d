import { createCipheriv, createDecipheriv, randomBytes } from "node:crypto";

// AES-256-GCM as both seals use it (a person's data key sealing a field, the master key wrapping a data key): a fresh
// 96-bit IV per seal, a 128-bit tag, and additional data that binds the sealed bytes to where they belong, so that a
// changed byte or a sealed value moved elsewhere fails to open. Parts are base64url, joined as `<iv>.<tag>.<body>`.

export const KEY_BYTES = 32;
const IV_BYTES = 12;
const TAG_BYTES = 16;

/** `<iv>.<tag>.<body>`: 16 and 22 base64url characters, then the ciphertext (empty for empty plaintext). */
export const SEALED_PARTS = "[A-Za-z0-9_-]{16}\\.[A-Za-z0-9_-]{22}\\.[A-Za-z0-9_-]*";

export function sealBytes(key: Buffer, plain: Buffer, additionalData: string): string {
  if (key.length !== KEY_BYTES) throw new Error(`An AES-256-GCM key is ${KEY_BYTES} bytes, not ${key.length}`);
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv("aes-256-gcm", key, iv, { authTagLength: TAG_BYTES });
  cipher.setAAD(Buffer.from(additionalData, "utf8"));
  const body = Buffer.concat([cipher.update(plain), cipher.final()]);
  return [iv, cipher.getAuthTag(), body].map((part) => part.toString("base64url")).join(".");
}

/** The plaintext, or null when the sealed value does not open under this key and additional data (altered or moved). */
export function openBytes(key: Buffer, sealed: string, additionalData: string): Buffer | null {
  const [iv, tag, body] = sealed.split(".");
  if (iv === undefined || tag === undefined || body === undefined) return null;
  try {
    const decipher = createDecipheriv("aes-256-gcm", key, Buffer.from(iv, "base64url"), { authTagLength: TAG_BYTES });
    decipher.setAAD(Buffer.from(additionalData, "utf8"));
    decipher.setAuthTag(Buffer.from(tag, "base64url"));
    return Buffer.concat([decipher.update(Buffer.from(body, "base64url")), decipher.final()]);
  } catch {
    return null;
  }
}
