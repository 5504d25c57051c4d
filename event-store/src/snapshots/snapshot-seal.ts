import { hkdfSync } from "node:crypto";
import { KEY_BYTES, SEALED_PARTS, openBytes, sealBytes } from "../personal-data/aes-gcm.ts";
import type { Snapshot } from "./snapshot-store.ts";

// Snapshots hold a decider's folded state, and so the plain text of what people wrote (a calendar's prep answers,
// notes, reasons): the events' envelopes would be undone by a table beside them in clear (issue 33.1). A snapshot is
// stored sealed as a whole, AES-256-GCM under a key of its own derived from the master secret (DATA_KEY_SECRET, HKDF
// with its own info string, so the key seals nothing else), bound to its stream, version and shape: a sealed state
// copied to another row does not open. It is not sealed per person: a snapshot is only a shortcut, so erasing a person
// deletes the snapshots that mention them (`forgetMentioning`) and the next cold load folds the stream, whose envelopes
// then read as erased.

const SEALED = new RegExp(`^ss1:(${SEALED_PARTS})$`);

/** The snapshots' key, made of the configured secret as the master key is, under another name. */
export function snapshotKeyFromSecret(secret: string): Buffer {
  if (secret.length < 32) throw new Error("DATA_KEY_SECRET must be at least 32 characters");
  return Buffer.from(hkdfSync("sha256", secret, "expert-sessions", "personal-data/snapshots/v1", KEY_BYTES));
}

type Place = Pick<Snapshot, "streamId" | "version" | "shape">;
const boundTo = (p: Place) => `ss1\u0000${p.streamId}\u0000${p.version}\u0000${p.shape}`;

export class SnapshotSeal {
  constructor(private readonly key: Buffer) {
    if (key.length !== KEY_BYTES) throw new Error(`A snapshot key is ${KEY_BYTES} bytes, not ${key.length}`);
  }

  /** The state as stored: `ss1:<iv>.<tag>.<ciphertext>` of its JSON. */
  seal(snapshot: Snapshot): string {
    return `ss1:${sealBytes(this.key, Buffer.from(JSON.stringify(snapshot.state), "utf8"), boundTo(snapshot))}`;
  }

  /**
   * The state a stored one seals; undefined when it is not sealed (written before sealing began), or does not open
   * here (another secret, altered, or moved from another row): either way it is not to be believed.
   */
  open(place: Place, stored: unknown): unknown {
    const sealed = typeof stored === "string" ? SEALED.exec(stored)?.[1] : undefined;
    if (sealed === undefined) return undefined;
    const plain = openBytes(this.key, sealed, boundTo(place));
    return plain === null ? undefined : (JSON.parse(plain.toString("utf8")) as unknown);
  }
}
