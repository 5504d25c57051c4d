import { needsSecondFactor, type LoginReply, type SecondFactorKind } from "@booking/contracts";
import { api, setSession } from "../shared/api-client.ts";
import type { AuthSession } from "../shared/api-types.ts";

// Signing in in one or two steps (issue 33.4): the password gives a session, or, with two-factor
// sign-in on, a challenge that a code from the authenticator app (or a recovery code) turns into one.

/** What the password step gave: a session (stored, this browser is signed in), or the challenge a code or a passkey answers. */
export type PasswordStep = { session: AuthSession } | { challenge: string; secondFactors: SecondFactorKind[] };

/** The proof of the second step: a code the app shows now, or one recovery code. */
export type SecondFactorProof = { code: string } | { recovery_code: string };

export async function signInWithPassword(email: string, password: string): Promise<PasswordStep> {
  const reply = await api.post<LoginReply>("/auth/login", { email, password }, { auth: false });
  if (needsSecondFactor(reply)) return { challenge: reply.challenge, secondFactors: reply.second_factors };
  setSession(reply);
  return { session: reply };
}

export async function signInWithSecondFactor(challenge: string, proof: SecondFactorProof): Promise<AuthSession> {
  const session = await api.post<AuthSession>("/auth/login/two-factor", { challenge, ...proof }, { auth: false });
  setSession(session);
  return session;
}
