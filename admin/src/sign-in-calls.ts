import { createContext, useContext } from "react";
import type { TwoFactorConfirmReply, TwoFactorEnrolReply } from "@booking/contracts";
import type { AuthSession, SignInStep } from "./auth-provider.ts";
import type * as SignInApiModule from "./sign-in-api.ts";

// What the sign-in page calls, without bringing it along (issue 34): the calls to the API, the code
// step's checks and the session client come with the contracts and zod (sign-in-api.ts), a chunk
// fetched once the page has loaded, so the page's first load is React, MUI and the form.

export { SignInRefused } from "./console-session.ts";
export type { AuthSession, SignInStep } from "./auth-provider.ts";

type SignInApi = typeof SignInApiModule;

let loading: Promise<SignInApi> | null = null;
let loaded: SignInApi | null = null;

/** The calls' chunk, fetched once: after the sign-in page's load event (sign-in-entry.tsx), else at the first call. */
export function loadSignInApi(): Promise<SignInApi> {
  loading ??= import("./sign-in-api.ts").then(
    (api) => (loaded = api),
    (e: unknown) => {
      // A network failure: the next call asks again.
      loading = null;
      throw e;
    },
  );
  return loading;
}

export async function signInWithPassword(email: string, password: string): Promise<SignInStep> {
  return (await loadSignInApi()).signInWithPassword(email, password);
}

export async function signInWithSecondFactor(challenge: string, proof: { code: string } | { recovery_code: string }): Promise<SignInStep> {
  return (await loadSignInApi()).signInWithSecondFactor(challenge, proof);
}

export async function signInWithPasskey(challenge: string): Promise<SignInStep> {
  return (await loadSignInApi()).signInWithPasskey(challenge);
}

export async function enrolTwoFactor(session: AuthSession, password: string): Promise<TwoFactorEnrolReply> {
  return (await loadSignInApi()).enrolTwoFactor(session, password);
}

export async function confirmTwoFactor(session: AuthSession, code: string): Promise<TwoFactorConfirmReply["recovery_codes"]> {
  return (await loadSignInApi()).confirmTwoFactor(session, code);
}

type CodeCheck = { safeParse(value: unknown): ReturnType<SignInApi["AuthenticatorCode"]["safeParse"]> };

/**
 * A check of the code step's form, the contracts' own schema. The code step only comes after a call
 * (the password's) has loaded the calls' chunk, so the check is synchronous, as the page uses it.
 */
function codeCheck(schema: (api: SignInApi) => CodeCheck): CodeCheck {
  return {
    safeParse(value) {
      if (!loaded) throw new Error("The sign-in's checks are not loaded yet.");
      return schema(loaded).safeParse(value);
    },
  };
}

export const AuthenticatorCode = codeCheck((api) => api.AuthenticatorCode);
export const RecoveryCode = codeCheck((api) => api.RecoveryCode);

/** Signing in with the session the steps ended in. */
export type Login = (params: { session: AuthSession }) => Promise<void>;

/**
 * Inside the console, react-admin's login (app.tsx), which goes back to the page the admin was on;
 * on the sign-in page's own entry, one that then opens the console (sign-in-entry.tsx). Without
 * either (the page rendered alone), the console's auth provider signs in and nothing more.
 */
const LoginContext = createContext<Login>(async (params) => (await loadSignInApi()).authProvider.login(params));

export const LoginProvider = LoginContext.Provider;

export function useLogin(): Login {
  return useContext(LoginContext);
}
