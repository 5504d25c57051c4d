import { createCipheriv, createDecipheriv, createHmac, hkdfSync, randomBytes } from "node:crypto";

// Secrets of connected calendars (an iCal address carries its own key; a CalDAV app password is
// one) sealed with AES-256-GCM under a key from configuration: CALENDAR_SECRETS_KEY, or else one
// derived from JWT_SECRET (HKDF), so the embedded default works with no extra setting. A sealed
// value is `v1.<iv>.<tag>.<ciphertext>` (base64url); a wrong key or a changed byte fails to open.

export type SecretBox = {
  seal(plain: string): string;
  open(sealed: string): string;
  /** A keyed fingerprint: tells two equal secrets apart from others without storing either. */
  fingerprint(plain: string): string;
};

/** The 32-byte key: a configured one (64 hex digits or 43+ base64 characters), or derived from the JWT secret. */
export function calendarSecretsKey(configured: string | undefined, jwtSecret: string): Buffer {
  if (configured) {
    const key = /^[0-9a-f]{64}$/i.test(configured) ? Buffer.from(configured, "hex") : Buffer.from(configured, "base64");
    if (key.length !== 32) throw new Error("CALENDAR_SECRETS_KEY must be 32 bytes (64 hex digits or base64)");
    return key;
  }
  return Buffer.from(hkdfSync("sha256", jwtSecret, "expert-sessions", "external-calendars/v1", 32));
}

export function secretBox(key: Buffer): SecretBox {
  return {
    seal(plain) {
      const iv = randomBytes(12);
      const cipher = createCipheriv("aes-256-gcm", key, iv);
      const body = Buffer.concat([cipher.update(plain, "utf8"), cipher.final()]);
      return ["v1", iv, cipher.getAuthTag(), body].map((p) => (typeof p === "string" ? p : p.toString("base64url"))).join(".");
    },
    open(sealed) {
      const [version, iv, tag, body] = sealed.split(".");
      if (version !== "v1" || !iv || !tag || body === undefined) throw new Error("Not a sealed calendar secret");
      const decipher = createDecipheriv("aes-256-gcm", key, Buffer.from(iv, "base64url"));
      decipher.setAuthTag(Buffer.from(tag, "base64url"));
      return Buffer.concat([decipher.update(Buffer.from(body, "base64url")), decipher.final()]).toString("utf8");
    },
    fingerprint: (plain) => createHmac("sha256", key).update(`fingerprint:${plain}`).digest("base64url"),
  };
}
