import { hkdfSync } from "node:crypto";
import { KEY_BYTES, SEALED_PARTS, freshRandom, openBytes, sealBytes } from "./aes-gcm.ts";

// Data keys (issue 33.1): one per person, 32 random bytes, kept wrapped (encrypted) by the master key, so that the
// table of data keys alone opens nothing; erasure destroys a person's wrapped key. The master key comes from
// configuration (DATA_KEY_SECRET, read by the caller). A wrapped key is `dk1:<iv>.<tag>.<ciphertext>`, bound to its
// owner's id: a wrapped key copied to another person's row does not unwrap.

/** Where the envelope finds a person's data key. */
export interface KeyRing {
  /**
   * The data key of `ownerId`; with `create`, a new one if they have none yet. Null when they have none and `create` is
   * false, and always null for a person whose key was destroyed (erased): an erased person never gets a key again.
   */
  keyFor(ownerId: string, create: boolean): Promise<Buffer | null>;
}

/** A wrapped data key that does not unwrap: another master key, a changed byte, or a key moved to another person. */
export class DataKeyError extends Error {
  constructor(readonly ownerId: string) {
    super(`The data key of ${ownerId} does not unwrap: wrong master key (DATA_KEY_SECRET), or the wrapped key was altered or moved`);
    this.name = "DataKeyError";
  }
}

const WRAPPED = new RegExp(`^dk1:(${SEALED_PARTS})$`);
const wrappedFor = (ownerId: string) => `dk1\u0000data-key\u0000${ownerId}`;

/** A new data key: 32 bytes from the CSPRNG (cut from a block drawn at once: a sign-up makes one). */
export const newDataKey = (): Buffer => freshRandom(KEY_BYTES);

/**
 * The master key made of the configured secret (at least 32 characters, such as `npm start` generates into `.data/`):
 * HKDF-SHA-256, so any strong secret gives a 32-byte key and the key is used for nothing else.
 */
export function masterKeyFromSecret(secret: string): Buffer {
  if (secret.length < 32) throw new Error("DATA_KEY_SECRET must be at least 32 characters");
  return Buffer.from(hkdfSync("sha256", secret, "expert-sessions", "personal-data/master-key/v1", KEY_BYTES));
}

export function wrapKey(ownerId: string, dataKey: Buffer, masterKey: Buffer): string {
  if (dataKey.length !== KEY_BYTES) throw new Error(`A data key is ${KEY_BYTES} bytes, not ${dataKey.length}`);
  return `dk1:${sealBytes(masterKey, dataKey, wrappedFor(ownerId))}`;
}

/** The data key of `ownerId`; throws DataKeyError when the wrapped key does not unwrap under this master key. */
export function unwrapKey(ownerId: string, wrapped: string, masterKey: Buffer): Buffer {
  const sealed = WRAPPED.exec(wrapped)?.[1];
  const key = sealed === undefined ? null : openBytes(masterKey, sealed, wrappedFor(ownerId));
  if (!key || key.length !== KEY_BYTES) throw new DataKeyError(ownerId);
  return key;
}

/** A key ring in memory, keeping keys wrapped as a table would (for tests and tools; the product's keeps a table). */
export class InMemoryKeyRing implements KeyRing {
  private readonly wrapped = new Map<string, string>();
  private readonly erased = new Set<string>();

  constructor(private readonly masterKey: Buffer) {}

  async keyFor(ownerId: string, create: boolean): Promise<Buffer | null> {
    if (this.erased.has(ownerId)) return null;
    const wrapped = this.wrapped.get(ownerId);
    if (wrapped !== undefined) return unwrapKey(ownerId, wrapped, this.masterKey);
    if (!create) return null;
    const key = newDataKey();
    this.wrapped.set(ownerId, wrapKey(ownerId, key, this.masterKey));
    return key;
  }

  /** Destroy a person's data key: everything sealed with it reads as erased from now on. */
  erase(ownerId: string): void {
    this.wrapped.delete(ownerId);
    this.erased.add(ownerId);
  }

  /** The wrapped key as a table row would hold it (undefined: none). */
  wrappedKeyOf(ownerId: string): string | undefined {
    return this.wrapped.get(ownerId);
  }

  /** Put a wrapped key in place, as a row copied from elsewhere would be. */
  restoreWrappedKey(ownerId: string, wrapped: string): void {
    this.wrapped.set(ownerId, wrapped);
  }
}
