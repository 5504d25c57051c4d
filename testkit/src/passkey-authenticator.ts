import { createHash, generateKeyPairSync, randomBytes, sign, type KeyObject } from "node:crypto";

// A passkey authenticator in Node, for the API suites: it answers WebAuthn's options as a browser
// with a platform authenticator would (ES256 keys, "none" attestation, discoverable credentials), so
// the API's checks run on real bytes. Built from the specification (WebAuthn Level 2, sections 6.1
// authenticator data, 6.5 attestation, 5.8.1 client data; RFC 8152 for the COSE key; RFC 8949 CBOR),
// with the few CBOR items those need. Tests can also make it misbehave: sign with a count that went
// backwards, skip verifying the person, or sign for another origin.

const b64url = (bytes: Uint8Array) => Buffer.from(bytes).toString("base64url");
const sha256 = (data: Uint8Array | string) => createHash("sha256").update(data).digest();

/** CBOR (RFC 8949) for what attestation needs: integers, byte and text strings, and maps. */
type Cbor = number | Uint8Array | string | Map<Cbor, Cbor>;

function cborHead(major: number, length: number): Buffer {
  if (length < 24) return Buffer.from([(major << 5) | length]);
  if (length < 0x100) return Buffer.from([(major << 5) | 24, length]);
  if (length < 0x10000) return Buffer.from([(major << 5) | 25, length >> 8, length & 0xff]);
  const head = Buffer.alloc(5);
  head[0] = (major << 5) | 26;
  head.writeUInt32BE(length, 1);
  return head;
}

function cbor(value: Cbor): Buffer {
  if (typeof value === "number") return value >= 0 ? cborHead(0, value) : cborHead(1, -1 - value);
  if (typeof value === "string") {
    const text = Buffer.from(value, "utf8");
    return Buffer.concat([cborHead(3, text.length), text]);
  }
  if (value instanceof Map) return Buffer.concat([cborHead(5, value.size), ...[...value].flatMap(([k, v]) => [cbor(k), cbor(v)])]);
  return Buffer.concat([cborHead(2, value.length), value]);
}

/** The authenticator data's flags (WebAuthn 6.1): user present, user verified, attested credential data. */
const FLAG = { userPresent: 0x01, userVerified: 0x04, attestedData: 0x40 } as const;

type Credential = { id: Buffer; privateKey: KeyObject; cosePublicKey: Buffer; userHandle: string; rpId: string; counter: number };

/** The options the API hands out, as far as an authenticator reads them. */
export type CreationOptionsSeen = { challenge: string; rp: { id?: string | undefined }; user: { id: string } };
export type RequestOptionsSeen = { challenge: string; rpId?: string | undefined; allowCredentials?: { id: string }[] | undefined };

/** What a test may make the authenticator do otherwise. */
export type Misbehaviour = {
  /** Sign with this count instead of the next one (a copied passkey's count lags behind). */
  counter?: number;
  /** Answer without having verified the person (presence only). */
  unverified?: boolean;
  /** Sign as if the page were at this origin (a phishing site's). */
  origin?: string;
  /** Answer with this credential (its id, base64url) although the options did not ask for it. */
  credentialId?: string;
};

export type RegistrationAnswer = {
  id: string;
  rawId: string;
  type: "public-key";
  response: { clientDataJSON: string; attestationObject: string; transports: string[] };
  authenticatorAttachment: "platform";
  clientExtensionResults: { credProps: { rk: boolean } };
};

export type AssertionAnswer = {
  id: string;
  rawId: string;
  type: "public-key";
  response: { clientDataJSON: string; authenticatorData: string; signature: string; userHandle: string };
  authenticatorAttachment: "platform";
  clientExtensionResults: Record<string, never>;
};

/** A platform authenticator holding discoverable ES256 passkeys, for pages at `origin`. */
export class PasskeyAuthenticator {
  private readonly credentials: Credential[] = [];

  constructor(readonly origin: string) {}

  /** The credentials it keeps (base64url ids), oldest first. */
  get credentialIds(): string[] {
    return this.credentials.map((c) => b64url(c.id));
  }

  /** The next count a credential would sign with (its count so far plus one). */
  counterOf(credentialId: string): number {
    return this.credentialOf(credentialId).counter + 1;
  }

  /** navigator.credentials.create(): a new credential for the options' user, with "none" attestation. */
  register(options: CreationOptionsSeen, misbehave: Misbehaviour = {}): RegistrationAnswer {
    const rpId = options.rp.id ?? new URL(this.origin).hostname;
    const { privateKey, publicKey } = generateKeyPairSync("ec", { namedCurve: "P-256" });
    const jwk = publicKey.export({ format: "jwk" });
    // COSE_Key (RFC 8152 13.1.1): kty EC2, alg ES256, crv P-256, x, y.
    const cosePublicKey = cbor(
      new Map<Cbor, Cbor>([
        [1, 2],
        [3, -7],
        [-1, 1],
        [-2, Buffer.from(jwk.x!, "base64url")],
        [-3, Buffer.from(jwk.y!, "base64url")],
      ]),
    );
    const credential: Credential = { id: randomBytes(32), privateKey, cosePublicKey, userHandle: options.user.id, rpId, counter: 0 };
    this.credentials.push(credential);
    const idLength = Buffer.alloc(2);
    idLength.writeUInt16BE(credential.id.length);
    const attested = Buffer.concat([Buffer.alloc(16) /* AAGUID: none */, idLength, credential.id, cosePublicKey]);
    const authData = this.authenticatorData(rpId, FLAG.attestedData | this.presenceFlags(misbehave), 0, attested);
    const attestationObject = cbor(
      new Map<Cbor, Cbor>([
        ["fmt", "none"],
        ["attStmt", new Map()],
        ["authData", authData],
      ]),
    );
    return {
      id: b64url(credential.id),
      rawId: b64url(credential.id),
      type: "public-key",
      response: {
        clientDataJSON: this.clientData("webauthn.create", options.challenge, misbehave),
        attestationObject: b64url(attestationObject),
        transports: ["internal"],
      },
      authenticatorAttachment: "platform",
      clientExtensionResults: { credProps: { rk: true } },
    };
  }

  /**
   * navigator.credentials.get(): an assertion by the newest credential the options allow (any kept
   * for the site, when they name none: a discoverable credential), its count moved on by one.
   */
  signIn(options: RequestOptionsSeen, misbehave: Misbehaviour = {}): AssertionAnswer {
    const rpId = options.rpId ?? new URL(this.origin).hostname;
    const allowed = options.allowCredentials?.map((c) => c.id);
    const credential = misbehave.credentialId
      ? this.credentialOf(misbehave.credentialId)
      : this.credentials.findLast((c) => c.rpId === rpId && (!allowed || allowed.includes(b64url(c.id))));
    if (!credential) throw new Error(`no passkey for ${rpId} among ${allowed?.join(", ") ?? "any"}`);
    const counter = misbehave.counter ?? credential.counter + 1;
    credential.counter = Math.max(credential.counter, counter);
    const authData = this.authenticatorData(rpId, this.presenceFlags(misbehave), counter);
    const clientDataJSON = this.clientData("webauthn.get", options.challenge, misbehave);
    // The signature covers the authenticator data and the client data's hash (WebAuthn 6.3.3), DER-encoded ECDSA.
    const signature = sign("sha256", Buffer.concat([authData, sha256(Buffer.from(clientDataJSON, "base64url"))]), credential.privateKey);
    return {
      id: b64url(credential.id),
      rawId: b64url(credential.id),
      type: "public-key",
      response: { clientDataJSON, authenticatorData: b64url(authData), signature: b64url(signature), userHandle: credential.userHandle },
      authenticatorAttachment: "platform",
      clientExtensionResults: {},
    };
  }

  private credentialOf(credentialId: string): Credential {
    const credential = this.credentials.find((c) => b64url(c.id) === credentialId);
    if (!credential) throw new Error(`no passkey ${credentialId}`);
    return credential;
  }

  private presenceFlags(misbehave: Misbehaviour): number {
    return FLAG.userPresent | (misbehave.unverified ? 0 : FLAG.userVerified);
  }

  /** rpIdHash (32) | flags (1) | signCount (4, big-endian) | attested credential data (registration only). */
  private authenticatorData(rpId: string, flags: number, counter: number, attested: Buffer = Buffer.alloc(0)): Buffer {
    const count = Buffer.alloc(4);
    count.writeUInt32BE(counter);
    return Buffer.concat([sha256(rpId), Buffer.from([flags]), count, attested]);
  }

  private clientData(type: "webauthn.create" | "webauthn.get", challenge: string, misbehave: Misbehaviour): string {
    return b64url(Buffer.from(JSON.stringify({ type, challenge, origin: misbehave.origin ?? this.origin, crossOrigin: false })));
  }
}
