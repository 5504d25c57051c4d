// The sign-in's calls and the code step's checks, as the chunk sign-in-calls.ts loads once the sign-in
// page is up: with them come the session client, the contracts and zod. csp.ts comes first, before
// the contracts build their schemas.
import "./csp.ts";

export {
  authProvider,
  confirmTwoFactor,
  enrolTwoFactor,
  signInWithPasskey,
  signInWithPassword,
  signInWithSecondFactor,
} from "./auth-provider.ts";
export { AuthenticatorCode, RecoveryCode } from "@booking/contracts";
