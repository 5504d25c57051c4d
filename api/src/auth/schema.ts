import type { Migration } from "@booking/contracts";

// The API's own credential tables. Credentials never enter the event log: the `user-{id}` stream
// holds who signed up and as what; these rows hold how they prove it.

export const authMigrations: readonly Migration[] = [
  {
    name: "001_accounts_and_refresh_tokens",
    sql: `
      CREATE TABLE accounts (
        user_id text PRIMARY KEY,
        email text NOT NULL,
        password_hash text NOT NULL,
        role text NOT NULL,
        first_name text,
        last_name text,
        created_at timestamptz,
        password_changed_at timestamptz
      );
      -- One account per address whatever its case; a racing second sign-up fails here.
      CREATE UNIQUE INDEX accounts_email ON accounts (lower(email));

      -- Only the sha256 of a refresh token is kept. A family is one sign-in and all its rotations.
      CREATE TABLE refresh_tokens (
        token_hash text PRIMARY KEY,
        user_id text NOT NULL,
        family_id text NOT NULL,
        expires_at timestamptz NOT NULL,
        used_at timestamptz,
        revoked_at timestamptz,
        created_at timestamptz NOT NULL
      );
      CREATE INDEX refresh_tokens_user ON refresh_tokens (user_id);
      CREATE INDEX refresh_tokens_family ON refresh_tokens (family_id);
    `,
  },
  {
    // Issue 16: no sign-in until the owner follows the verification link. Accounts made before it
    // were never asked to verify and are in use: they count as verified from their creation.
    name: "002_accounts_email_verified",
    sql: `
      ALTER TABLE accounts ADD COLUMN email_verified_at timestamptz;
      UPDATE accounts SET email_verified_at = coalesce(created_at, now());
    `,
  },
  {
    // Issue 26.13: failed sign-ins per address (its sha256: addresses with no account are counted
    // too), and the browsers that signed in to an account before (the sha256 of their cookie's token).
    name: "003_login_back_off",
    sql: `
      CREATE TABLE login_failures (
        address_hash text PRIMARY KEY,
        failures integer NOT NULL,
        last_at timestamptz NOT NULL,
        locked_until timestamptz
      );
      CREATE INDEX login_failures_last_at ON login_failures (last_at);
      CREATE TABLE known_devices (
        token_hash text NOT NULL,
        user_id text NOT NULL,
        failures integer NOT NULL DEFAULT 0,
        last_used_at timestamptz NOT NULL,
        PRIMARY KEY (token_hash, user_id)
      );
      CREATE INDEX known_devices_user ON known_devices (user_id, last_used_at);
    `,
  },
  {
    // Issue 33.4: the second factor. The TOTP secret is sealed (AES-256-GCM under a key derived from
    // the JWT secret: a copy of the table alone signs no one in); a new one waits in `pending_secret`
    // until a first code confirms it, the one in use staying meanwhile. A code of `last_step` or an
    // earlier time-step is refused, so a code works once. Recovery codes: their sha256 only.
    // Issue 33.5: each sign-in (a refresh-token family), named by the device it began on. Families
    // older than this table are listed as an unknown device from their first token on.
    name: "004_two_factor_and_sign_ins",
    sql: `
      CREATE TABLE two_factor (
        user_id text PRIMARY KEY,
        secret text,
        enrolled_at timestamptz,
        last_step bigint,
        pending_secret text,
        pending_since timestamptz
      );
      CREATE TABLE recovery_codes (
        user_id text NOT NULL,
        code_hash text NOT NULL,
        used_at timestamptz,
        PRIMARY KEY (user_id, code_hash)
      );
      CREATE TABLE sign_ins (
        family_id text PRIMARY KEY,
        user_id text NOT NULL,
        device text NOT NULL,
        first_seen_at timestamptz NOT NULL,
        last_seen_at timestamptz NOT NULL,
        ended_at timestamptz
      );
      CREATE INDEX sign_ins_user ON sign_ins (user_id, last_seen_at DESC);
      INSERT INTO sign_ins (family_id, user_id, device, first_seen_at, last_seen_at, ended_at)
        SELECT family_id, min(user_id), 'Unknown device', min(created_at), max(created_at), max(revoked_at)
          FROM refresh_tokens GROUP BY family_id;
    `,
  },
  {
    // Issue 33.4: passkeys (WebAuthn credentials), each with its public key (COSE) and the signature
    // counter last seen (a count that goes backwards is a copied passkey). A removed passkey keeps its
    // row (removed_at set) so that its next use is told it was removed, not that it is unknown. The
    // challenges the API handed out, each taken (deleted) by the one answer it gets: replaying it finds nothing.
    name: "005_passkeys",
    sql: `
      CREATE TABLE passkeys (
        id text PRIMARY KEY,
        credential_id text NOT NULL UNIQUE,
        user_id text NOT NULL,
        public_key bytea NOT NULL,
        counter bigint NOT NULL,
        transports text[] NOT NULL,
        name text NOT NULL,
        device text NOT NULL,
        synced boolean NOT NULL,
        created_at timestamptz NOT NULL,
        last_used_at timestamptz,
        removed_at timestamptz
      );
      CREATE INDEX passkeys_user ON passkeys (user_id) WHERE removed_at IS NULL;
      CREATE TABLE passkey_challenges (
        challenge text PRIMARY KEY,
        purpose text NOT NULL,
        user_id text,
        expires_at timestamptz NOT NULL
      );
      CREATE INDEX passkey_challenges_expiry ON passkey_challenges (expires_at);
    `,
  },
];
