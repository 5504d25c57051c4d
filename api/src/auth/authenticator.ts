import { createCipheriv, createDecipheriv, createHash, hkdfSync, randomBytes, randomInt } from "node:crypto";
import { generateSecret, generateURI, verify } from "otplib";
import QRCode from "qrcode";
import { RECOVERY_CODE_COUNT } from "@booking/contracts";

// What an authenticator app and the server share (issue 33.4): a TOTP secret (RFC 6238: 30-second
// steps, 6 digits, SHA-1, as every app reads `otpauth://` URIs), the QR code that carries it, and the
// recovery codes that stand in for the app when it is lost.

/** The issuer an authenticator app lists the account under. */
export const ISSUER = "Expert Sessions";
const PERIOD_SECONDS = 30;
/** One step either side of now: a clock a little off, or a code typed as it turned over, still counts. */
const TOLERANCE_SECONDS = PERIOD_SECONDS;

/** The key sealing TOTP secrets: derived from the JWT secret, so the embedded default needs no extra setting. */
export function twoFactorKey(jwtSecret: string): Buffer {
  return Buffer.from(hkdfSync("sha256", jwtSecret, "expert-sessions", "two-factor/v1", 32));
}

/** AES-256-GCM: `v1.<iv>.<tag>.<ciphertext>` (base64url); a wrong key or a changed byte fails to open. */
export function sealSecret(key: Buffer, secret: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", key, iv);
  const body = Buffer.concat([cipher.update(secret, "utf8"), cipher.final()]);
  return ["v1", ...[iv, cipher.getAuthTag(), body].map((part) => part.toString("base64url"))].join(".");
}

export function openSecret(key: Buffer, sealed: string): string {
  const [version, iv, tag, body] = sealed.split(".");
  if (version !== "v1" || !iv || !tag || body === undefined) throw new Error("Not a sealed two-factor secret");
  const decipher = createDecipheriv("aes-256-gcm", key, Buffer.from(iv, "base64url"));
  decipher.setAuthTag(Buffer.from(tag, "base64url"));
  return Buffer.concat([decipher.update(Buffer.from(body, "base64url")), decipher.final()]).toString("utf8");
}

/** A fresh secret: 20 random bytes (160 bits, RFC 4226's recommendation), base32 as apps take it. */
export const newSecret = (): string => generateSecret({ length: 20 });

/** The time-step a code of `secret` matches at `now` (one step either side), or null: not a code of now. */
export async function stepOfCode(secret: string, code: string, now: string): Promise<number | null> {
  const epoch = Math.floor(Date.parse(now) / 1000);
  const result = await verify({ secret, token: code, epoch, period: PERIOD_SECONDS, epochTolerance: TOLERANCE_SECONDS });
  // A TOTP result always names its step (the union's other half is HOTP's).
  return result.valid && "timeStep" in result ? result.timeStep : null;
}

/** What the QR code holds: the secret, under the issuer and the account's address. */
export const enrolmentUri = (email: string, secret: string): string =>
  generateURI({ issuer: ISSUER, label: email, secret, period: PERIOD_SECONDS });

/** The QR code as an SVG data URL: an `<img>` shows it, under the page's `img-src data:`. */
export async function qrCodeOf(uri: string): Promise<string> {
  const svg = await QRCode.toString(uri, { type: "svg", errorCorrectionLevel: "M", margin: 2 });
  return `data:image/svg+xml;base64,${Buffer.from(svg).toString("base64")}`;
}

// Recovery codes: 12 characters of an alphabet without look-alikes (no 0/o, 1/l/i), 60 bits each,
// printed in groups of four. Sign-in attempts are throttled, so their sha256 is enough to keep.
const ALPHABET = "abcdefghjkmnpqrstuvwxyz23456789";

/** Ten new recovery codes, as shown to the owner (`abcd-efgh-jkmn`). */
export function newRecoveryCodes(): string[] {
  return Array.from({ length: RECOVERY_CODE_COUNT }, () => {
    const chars = Array.from({ length: 12 }, () => ALPHABET[randomInt(ALPHABET.length)]).join("");
    return `${chars.slice(0, 4)}-${chars.slice(4, 8)}-${chars.slice(8)}`;
  });
}

/** A recovery code's fingerprint, whatever its case, spaces and dashes (contracts' RecoveryCode normalises them too). */
export const recoveryCodeHash = (code: string): string =>
  createHash("sha256").update(code.toLowerCase().replace(/[\s-]/g, "")).digest("hex");
