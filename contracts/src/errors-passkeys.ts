// The error catalogue's entries for passkeys (issue 33.4), kept apart so errors.ts stays readable; errors.ts spreads them
// into the catalogue. Every refusal of a passkey is bad input (4xx, never a 401): on the signed-in routes a client must
// keep its session, and a refused passkey sign-in leaves the person free to try another way.

export const passkeyErrors = {
  passkey_response_invalid: { status: 400, message: "Your passkey's answer could not be read. Please try again." },
  passkey_challenge_invalid: {
    status: 400,
    message: "This passkey request was already used or was never made here. Please start again: each request works once.",
  },
  passkey_challenge_expired: { status: 400, message: "Your passkey took too long to answer. Please try again." },
  passkey_not_verified: { status: 400, message: "Your passkey's answer could not be verified. Please try again, or use another passkey." },
  passkey_unknown: {
    status: 400,
    message: "This passkey is not registered with your Expert Sessions account. Sign in with your password, or use another passkey.",
  },
  passkey_removed: {
    status: 400,
    message: "This passkey was removed from your account and no longer signs you in. Sign in with your password, or use another passkey.",
  },
  passkey_counter_regressed: {
    status: 400,
    message:
      "This passkey's use count went backwards, which happens when a passkey has been copied, so it was refused. " +
      "Sign in another way, and remove the passkey from your account if you do not recognise this.",
  },
  passkey_already_registered: { status: 409, message: "This passkey is already registered to your account." },
  passkey_limit: { status: 409, message: "You can keep at most {max} passkeys. Please remove one first." },
  passkey_name_invalid: { status: 400, message: "Please give the passkey a name of up to 60 characters." },
  passkey_not_found: { status: 404, message: "This passkey was not found. It may have been removed already." },
  passkey_none_registered: {
    status: 409,
    message: "No passkey is registered for your account. Enter the code from your authenticator app instead.",
  },
  passkey_last_admin_factor: {
    status: 403,
    message: "Admins keep a second factor: add another passkey or set up two-factor sign-in before removing this one.",
  },
} as const satisfies Record<string, { status: number; message: string }>;
